// SPDX-License-Identifier: MIT
// The Timeline page of a session: the replay windows per agent and the application's dispatches per queue
// on a time axis (TimelineCanvas over TimelineModel), with zoom, pan, fit and a scrollbar; a click selects
// the dispatch in the rest of the inspector (SessionView connects dispatchClicked()).
#pragma once

#include "model/SessionSnapshot.h"
#include "model/TimelineModel.h"

#include <QWidget>

#include <memory>

class QLabel;
class QScrollBar;

namespace rs::app {

class TimelineCanvas;

class TimelinePage : public QWidget {
    Q_OBJECT
  public:
    explicit TimelinePage(QWidget* parent = nullptr);
    /// Rebuilds the timeline from `snapshot` (keeps the visible range while it still shows the session).
    void setSnapshot(const SessionSnapshot& snapshot);
    TimelineCanvas* canvas() const { return canvas_; }
    QScrollBar* scrollBar() const { return scroll_; }
    const TimelineModel* model() const { return model_.get(); }
    /// Highlights the window of dispatch row `row` (-1: none) without emitting dispatchClicked().
    void setSelectedRow(int row);

  signals:
    /// A window or mark was clicked: row `row` of SessionData::dispatches.
    void dispatchClicked(int row);
    /// A window or mark was double-clicked (SessionView shows the Dispatches page).
    void dispatchActivated(int row);

  private:
    void syncScrollBar();
    void scrolled(int value);

    std::shared_ptr<const TimelineModel> model_;
    TimelineCanvas* canvas_;
    QScrollBar* scroll_;
    QLabel* status_;
    bool syncing_ = false;
};

} // namespace rs::app
