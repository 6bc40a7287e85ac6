// SPDX-License-Identifier: MIT
// The first tab: recent sessions (target, date, agents, dispatches, complete or not), Open and Launch.
#pragma once

#include <QWidget>

class QTreeWidget;

namespace rs::app {

class StartPage : public QWidget {
    Q_OBJECT
  public:
    explicit StartPage(QWidget* parent = nullptr);
    /// Re-reads the recent list from the settings.
    void refresh();
    QTreeWidget* recentList() const { return recent_; }

  signals:
    void openRequested(const QString& path);
    void openDialogRequested();
    void launchRequested();

  protected:
    /// On QEvent::PaletteChange the status colours of the list follow the new palette.
    void changeEvent(QEvent* event) override;

  private:
    QTreeWidget* recent_;
};

} // namespace rs::app
