// SPDX-License-Identifier: MIT
// The inspector's theme: the desktop's colours (system), or Qt's Fusion style with a light or a dark
// palette; chosen by `replayscope --theme` or View > Theme and kept in QSettings ("appearance/theme").
#pragma once

#include <QPalette>
#include <QString>

#include <optional>

namespace rs::app {

class Theme {
  public:
    enum class Choice {
        system, ///< the style and palette the platform gives (a dark desktop gives a dark palette)
        light,  ///< Fusion with its light palette
        dark,   ///< Fusion with darkPalette()
    };

    /// "system", "light", "dark" (any case); nullopt for anything else.
    static std::optional<Choice> fromName(const QString& name);
    static QString name(Choice choice);

    /// The choice saved by save() (QSettings key "appearance/theme"); system when none or unknown.
    static Choice saved();
    static void save(Choice choice);

    /// Applies `choice` to the application (QApplication must exist): style and palette. Widgets get
    /// QEvent::PaletteChange and recompute the colours they derive from it (ThemeColors). `system`
    /// restores the style the application started with and the platform's palette; with Qt 6.5 or newer,
    /// when the platform reports a dark colour scheme (QStyleHints::colorScheme()) but its palette is light,
    /// it uses the dark palette, and follows later changes of the scheme.
    static void apply(Choice choice);
    /// The choice last applied (system before any).
    static Choice current();

    /// The dark palette of `--theme dark`: text #e8e8e8 on window #2d2d2d and base #1f1f1f.
    static QPalette darkPalette();
    /// Fusion's light palette, its placeholder text (the inspector's secondary text) darkened to a
    /// contrast of 4.5:1.
    static QPalette lightPalette();
};

} // namespace rs::app
