// SPDX-License-Identifier: MIT
// Colours derived from a QPalette instead of hard-coded: banners, status text, categorical colours, and the
// WCAG 2 contrast ratio they are chosen by. Qt Gui only, so the table models use it as well as the widgets.
#pragma once

#include <QColor>
#include <QString>

#include <initializer_list>

class QPalette;

namespace rs::app {

/// The inspector's colours for light and dark palettes alike (a light desktop, KDE Breeze Dark, a dark
/// palette from QT_QPA_PLATFORMTHEME, `replayscope --theme dark`), so that no text is black on a dark
/// background or white on a light one.
///
/// Pass the palette of the widget that paints (`widget->palette()`); a table model, which has no widget,
/// passes QGuiApplication::palette(). A palette is dark when its Window colour's HSL lightness is below
/// one half (isDark()). Banners and status colours have a light and a dark variant chosen by that; text
/// colours are then made lighter (dark palette) or darker (light palette) until their contrast ratio with
/// every background they are shown on is at least kTextContrast (WCAG 2 level AA for normal text): the
/// palette's Window, Base and AlternateBase for status(), the banner's own background for banner().
/// Categorical colours are the same on both (they are fills and lines, chosen with at least
/// kGraphicContrast against light and near-black backgrounds).
///
/// A widget that keeps a colour it got from here (a style sheet, rich text, a tree item's brush)
/// computes it again on QEvent::PaletteChange (in changeEvent()), which Qt sends when the application's
/// or the widget's palette changes.
///
/// Examples:
///
///     // a warning banner (QLabel): background, text and border for this palette
///     label->setStyleSheet(ThemeColors::bannerStyleSheet(label->palette(), ThemeColors::Banner::warning));
///     const ThemeColors::BannerColors c = ThemeColors::banner(palette(), ThemeColors::Banner::error);
///     // a status word in rich text
///     text += ThemeColors::statusHtml(palette(), ThemeColors::Status::bad, tr("incomplete"));
///     // a table model's Qt::ForegroundRole
///     return ThemeColors::status(ThemeColors::Status::good);
class ThemeColors {
  public:
    /// The kinds of banner: information, something to watch, something that failed.
    enum class Banner { notice, warning, error };
    /// The meaning of a coloured word: done or kept (complete, replayed, tracked); partial or in progress
    /// (live, simulated, skipped); failed or lost (incomplete, declined, missed).
    enum class Status { good, caution, bad };

    struct BannerColors {
        QColor background;
        QColor foreground; ///< text, contrast >= kTextContrast against background
        QColor border;
    };

    static constexpr double kTextContrast = 4.5;    ///< WCAG 2 AA, normal text
    static constexpr double kGraphicContrast = 3.0; ///< WCAG 2.1 non-text contrast (fills, lines)

    /// Whether `palette` is dark: its Window colour's lightness is below one half.
    static bool isDark(const QPalette& palette);

    /// A banner's colours for `palette` (a pale background on a light palette, a deep one on a dark one).
    static BannerColors banner(const QPalette& palette, Banner kind);
    /// A style sheet for a banner widget: background, text colour, border, rounded corners, padding;
    /// `selector` names the widget class it applies to ("QLabel").
    static QString bannerStyleSheet(const QPalette& palette, Banner kind,
                                    const QString& selector = QStringLiteral("QLabel"));

    /// Text colour for `status` on `palette`'s Window, Base and AlternateBase (contrast >= kTextContrast
    /// against each).
    static QColor status(const QPalette& palette, Status status);
    /// status() on the application's palette (QGuiApplication::palette()): for table models'
    /// Qt::ForegroundRole, which a view asks for again when it repaints after a palette change.
    static QColor status(Status status);
    /// `html` in status()'s colour, bold unless `bold` is false: "<b style='color:#2e7d32'>html</b>".
    static QString statusHtml(const QPalette& palette, Status status, const QString& html, bool bold = true);

    /// Categorical colour `index` (cycling through 8): chart series, kernels, agents. The same on light
    /// and dark palettes: each has a contrast of at least kGraphicContrast with white, #efefef and #1f1f1f
    /// to #2d2d2d (the light and dark palettes' windows and bases).
    static QColor category(int index);

    /// Black or white, whichever contrasts more with the opaque colour `background` (text on a fill).
    static QColor textOn(const QColor& background);
    /// `color` (with its alpha) painted over the opaque `background`.
    static QColor over(const QColor& color, const QColor& background);
    /// `color` made lighter (`lighter`) or darker in steps of HSL lightness until its contrast with every
    /// colour of `backgrounds` is at least `ratio`, or it is white or black.
    static QColor withContrast(QColor color, std::initializer_list<QColor> backgrounds, double ratio,
                               bool lighter);

    /// WCAG 2 relative luminance of the opaque colour `c` (0 black .. 1 white).
    static double relativeLuminance(const QColor& c);
    /// WCAG 2 contrast ratio of two opaque colours, 1 .. 21.
    static double contrastRatio(const QColor& a, const QColor& b);
};

} // namespace rs::app
