// SPDX-License-Identifier: MIT
// A sortable table over a SessionTableModel with an optional filter bar (text, agent, process, code) and
// "Export CSV…". Used by every page.
#pragma once

#include "model/SessionFilterProxyModel.h"
#include "model/SessionSnapshot.h"

#include <QWidget>

class QAbstractItemModel;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QTableView;

namespace rs::app {

class TablePanel : public QWidget {
    Q_OBJECT
  public:
    TablePanel(QAbstractItemModel* model, const QString& name, QWidget* parent = nullptr);

    /// Adds a text filter box (matches FilterTextRole).
    void addTextFilter(const QString& placeholder);
    /// Adds an agent filter; call setAgents when the session's agents are known.
    void addAgentFilter();
    /// The agent filter's entries: (label, (process, handle)) per agent.
    void setAgents(const QList<QPair<QString, ProcessKey>>& agents);
    /// The entries of an agent filter for `snapshot`: (agentLabel, (process, handle)) per GPU agent.
    static QList<QPair<QString, ProcessKey>> agentChoices(const SessionSnapshot& snapshot);
    /// Adds a process filter (ProcessRole); hidden while the session has one process.
    void addProcessFilter();
    /// The session's processes: (label, process index). The filter is shown with two or more.
    void setProcesses(const QList<QPair<QString, int>>& processes);
    QComboBox* processFilter() const { return process_; }
    /// The entries of a process filter for `snapshot`: ("pid N command", process index) per process.
    static QList<QPair<QString, int>> processChoices(const SessionSnapshot& snapshot);
    /// Adds a code filter: entries (label, code or nullopt for "all").
    void addCodeFilter(const QString& label, const QList<QPair<QString, int>>& codes);
    /// Replaces the code filter's entries, keeping the current choice when it still exists.
    void setCodes(const QList<QPair<QString, int>>& codes);
    /// Width hints in characters per column (after the first data).
    void setColumnWidths(const QList<int>& characters);
    /// Sizes every column but the last (which stretches) to its header and contents, at most
    /// `maxCharacters` average characters wide; wider cells elide in the middle. Where the headers would
    /// make the row wider than the view, columns shrink toward their cells' width first. For small
    /// tables (the size hints sample the first 1000 rows).
    void fitColumnsToContents(int maxCharacters);
    QTableView* view() const { return view_; }
    SessionFilterProxyModel* proxy() const { return proxy_; }
    /// Writes the visible (filtered, sorted) rows as CSV.
    bool exportCsv(const QString& path) const;

  private:
    void updateCount();

    QString name_;
    SessionFilterProxyModel* proxy_;
    QTableView* view_;
    QHBoxLayout* bar_;
    QLineEdit* text_ = nullptr;
    QComboBox* agent_ = nullptr;
    QComboBox* code_ = nullptr;
    QComboBox* process_ = nullptr;
    QLabel* count_;
};

} // namespace rs::app
