// The SQL queries a reader of a session file runs, per page, and the layout probe that chooses them.
#pragma once

namespace rs::session {} // namespace rs::session
