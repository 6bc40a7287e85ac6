// SPDX-License-Identifier: MIT
// Item data roles shared by the inspector's table models and proxies.
#pragma once

#include <Qt>

namespace rs::app {

enum ModelRole {
    SortRole = Qt::UserRole + 1, ///< raw value (number or text) for sorting and CSV export
    FilterTextRole,              ///< text matched by the proxy's text filter (kernel, symbol, ...)
    AgentRole,                   ///< owner agent handle (qint64)
    CodeRole,                    ///< outcome / reason code (int)
    RowIdRole,                   ///< row id: dispatch id, allocation id, ...
    ProcessRole,                 ///< process index of the row (int, 1-based; SessionData::processes)
};

} // namespace rs::app
