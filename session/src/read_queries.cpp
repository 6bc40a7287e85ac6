// The SQL queries a reader of a session file runs (read_queries.h).
#include "replayscope/session/read_queries.h"

namespace rs::session {} // namespace rs::session
