// SPDX-License-Identifier: MIT
// Filters and sorts any SessionTableModel: text (kernel or symbol; case-insensitive substring or regex),
// agent, process, and outcome / reason code. Sorting uses the raw values (SortRole).
#pragma once

#include "model/SessionSnapshot.h"

#include <QHash>
#include <QRegularExpression>
#include <QSortFilterProxyModel>

#include <optional>

namespace rs::app {

class SessionFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    /// Code filter value meaning "any non-zero code" (every declined dispatch, every excluded allocation).
    static constexpr int kAnyNonZero = -2;
    /// The code of the normal case in every enum the code filter is used with: DispatchDecision::replayed,
    /// AllocationClass::tracked, VariableStatus::captured, AsyncCopyOutcome::not_fenced (checked against
    /// the vocabulary in the .cpp);
    /// kAnyNonZero selects every other code.
    static constexpr int kNormalCode = 0;

    explicit SessionFilterProxyModel(QObject* parent = nullptr);
    /// Text the row's FilterTextRole must contain (or match, when it is a valid regex); empty: all.
    void setTextFilter(const QString& text);
    /// Rows of one agent only: (process, handle), matched against AgentRole and, where the model answers
    /// it, ProcessRole (handles repeat across processes); nullopt: every agent.
    void setAgentFilter(std::optional<ProcessKey> agent);
    void setCodeFilter(std::optional<int> code);
    /// Rows of process `process` only (ProcessRole, 1-based); nullopt: every process.
    void setProcessFilter(std::optional<int> process);
    std::optional<int> processFilter() const { return process_; }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

  private:
    QString text_;
    QRegularExpression regex_;
    mutable QHash<QString, bool> text_matches_; ///< per distinct text (kernel names repeat)
    std::optional<ProcessKey> agent_;
    std::optional<int> code_;
    std::optional<int> process_;
};

} // namespace rs::app
