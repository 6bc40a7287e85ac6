// SPDX-License-Identifier: MIT
#include "ui/WindowState.h"

#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>

namespace rs::app {

namespace {
const QString kGeometry = QStringLiteral("mainWindow/geometry");
const QString kState = QStringLiteral("mainWindow/state");
} // namespace

QRect WindowState::initialGeometry(const QRect& available, double fraction) {
    if (available.isEmpty()) {
        return QRect(0, 0, 1400, 900);
    }
    const QSize size(int(available.width() * fraction), int(available.height() * fraction));
    QRect r(QPoint(0, 0), size);
    r.moveCenter(available.center());
    return r;
}

bool WindowState::restore(QMainWindow* window, QSettings& settings) {
    const QByteArray geometry = settings.value(kGeometry).toByteArray();
    if (!geometry.isEmpty() && window->restoreGeometry(geometry)) {
        window->restoreState(settings.value(kState).toByteArray());
        return true;
    }
    QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    window->setGeometry(initialGeometry(screen ? screen->availableGeometry() : QRect()));
    return false;
}

void WindowState::save(const QMainWindow* window, QSettings& settings) {
    settings.setValue(kGeometry, window->saveGeometry());
    settings.setValue(kState, window->saveState());
}

} // namespace rs::app
