// SPDX-License-Identifier: MIT
// The main window's size and place: on first start 90 % of the screen's available geometry, centred; later
// the geometry and state saved when the window was last closed (QSettings group "mainWindow", keys
// "geometry" and "state": QWidget::saveGeometry, QMainWindow::saveState).
#pragma once

#include <QRect>

class QMainWindow;
class QSettings;

namespace rs::app {

class WindowState {
  public:
    /// The first-start geometry: `fraction` of `available` (the screen's available geometry, pixels),
    /// centred in it. An empty `available` gives 1400 x 900 at (0, 0).
    static QRect initialGeometry(const QRect& available, double fraction = 0.9);
    /// Restores what save() wrote to `settings`; without it (or when it does not restore, e.g. written by
    /// another Qt version) applies initialGeometry() of the window's screen. True when restored.
    static bool restore(QMainWindow* window, QSettings& settings);
    /// Writes the window's geometry and state to `settings`.
    static void save(const QMainWindow* window, QSettings& settings);
};

} // namespace rs::app
