// A sortable table over a SessionTableModel with an optional filter bar (text, agent, code) and
// "Export CSV…". Used by every page.
#pragma once

#include "model/SessionFilterProxyModel.h"

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
    void setAgents(const QList<QPair<QString, qint64>>& agents);
    /// Adds a code filter: entries (label, code or nullopt for "all").
    void addCodeFilter(const QString& label, const QList<QPair<QString, int>>& codes);
    /// Replaces the code filter's entries, keeping the current choice when it still exists.
    void setCodes(const QList<QPair<QString, int>>& codes);
    /// Width hints in characters per column (after the first data).
    void setColumnWidths(const QList<int>& characters);
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
    QLabel* count_;
};

} // namespace rs::app
