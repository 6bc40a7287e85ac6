// SPDX-License-Identifier: MIT
#include "model/SessionFilterProxyModel.h"

#include "model/ModelRoles.h"

#include <replayscope/ipc/records.h>

namespace rs::app {

static_assert(int(rs::ipc::DispatchDecision::replayed) == SessionFilterProxyModel::kNormalCode &&
                  int(rs::ipc::AllocationClass::tracked) == SessionFilterProxyModel::kNormalCode &&
                  int(rs::ipc::VariableStatus::captured) == SessionFilterProxyModel::kNormalCode &&
                  int(rs::ipc::AsyncCopyOutcome::not_fenced) == SessionFilterProxyModel::kNormalCode,
              "the code filter's normal case is each filtered enum's first value");

SessionFilterProxyModel::SessionFilterProxyModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SortRole);
}

void SessionFilterProxyModel::setTextFilter(const QString& text) {
    text_ = text;
    text_matches_.clear();
    regex_ = QRegularExpression(text, QRegularExpression::CaseInsensitiveOption);
    if (!regex_.isValid()) {
        regex_ =
            QRegularExpression(QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption);
    }
    regex_.optimize();
    invalidate(); // one layout change: far cheaper for views than thousands of scattered row removals
}

void SessionFilterProxyModel::setAgentFilter(std::optional<ProcessKey> agent) {
    agent_ = agent;
    invalidate(); // one layout change: far cheaper for views than thousands of scattered row removals
}

void SessionFilterProxyModel::setCodeFilter(std::optional<int> code) {
    code_ = code;
    invalidate(); // one layout change: far cheaper for views than thousands of scattered row removals
}

void SessionFilterProxyModel::setProcessFilter(std::optional<int> process) {
    process_ = process;
    invalidate(); // one layout change: far cheaper for views than thousands of scattered row removals
}

bool SessionFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (process_ && index.data(ProcessRole).toInt() != *process_) {
        return false;
    }
    if (code_) {
        const int code = index.data(CodeRole).toInt();
        if (*code_ == kAnyNonZero ? code == kNormalCode : code != *code_) {
            return false;
        }
    }
    if (agent_) {
        const QVariant process = index.data(ProcessRole);
        if (index.data(AgentRole).toLongLong() != agent_->second ||
            (process.isValid() && process.toInt() != agent_->first)) {
            return false;
        }
    }
    if (!text_.isEmpty()) {
        const QString value = index.data(FilterTextRole).toString();
        auto it = text_matches_.constFind(value);
        if (it == text_matches_.cend()) {
            it = text_matches_.insert(value, value.contains(text_, Qt::CaseInsensitive) ||
                                                 regex_.match(value).hasMatch());
        }
        if (!*it) {
            return false;
        }
    }
    return true;
}

bool SessionFilterProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const QVariant l = left.data(SortRole), r = right.data(SortRole);
    if (l.typeId() == QMetaType::QString || r.typeId() == QMetaType::QString) {
        return QString::compare(l.toString(), r.toString(), Qt::CaseInsensitive) < 0;
    }
    if (l.typeId() == QMetaType::Double || r.typeId() == QMetaType::Double) {
        return l.toDouble() < r.toDouble();
    }
    return l.toLongLong() < r.toLongLong();
}

} // namespace rs::app
