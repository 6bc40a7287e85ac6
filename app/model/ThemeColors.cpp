// SPDX-License-Identifier: MIT
#include "model/ThemeColors.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace rs::app {

namespace {

struct BannerVariants {
    ThemeColors::BannerColors light, dark;
};

/// Pale on light palettes, deep on dark ones; the text colours are checked against the background again
/// in banner().
const BannerVariants& bannerVariants(ThemeColors::Banner kind) {
    static const BannerVariants notice{
        {QColor(0xe8, 0xf1, 0xfb), QColor(0x0b, 0x30, 0x50), QColor(0x90, 0xb8, 0xe0)},
        {QColor(0x15, 0x29, 0x3d), QColor(0xcf, 0xe6, 0xff), QColor(0x3b, 0x6d, 0x99)}};
    static const BannerVariants warning{
        {QColor(0xff, 0xf8, 0xe1), QColor(0x33, 0x26, 0x00), QColor(0xe0, 0xc0, 0x60)},
        {QColor(0x3a, 0x30, 0x14), QColor(0xff, 0xe7, 0xa0), QColor(0x8a, 0x6d, 0x1f)}};
    static const BannerVariants error{
        {QColor(0xfd, 0xec, 0xea), QColor(0x5f, 0x14, 0x10), QColor(0xe5, 0x73, 0x73)},
        {QColor(0x3d, 0x1a, 0x1a), QColor(0xff, 0xd7, 0xd4), QColor(0xa6, 0x40, 0x40)}};
    switch (kind) {
    case ThemeColors::Banner::notice:
        return notice;
    case ThemeColors::Banner::warning:
        return warning;
    case ThemeColors::Banner::error:
        return error;
    }
    return notice;
}

double linear(double channel) {
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

} // namespace

bool ThemeColors::isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

ThemeColors::BannerColors ThemeColors::banner(const QPalette& palette, Banner kind) {
    const bool dark = isDark(palette);
    BannerColors c = dark ? bannerVariants(kind).dark : bannerVariants(kind).light;
    c.foreground = withContrast(c.foreground, {c.background}, kTextContrast, dark);
    return c;
}

QString ThemeColors::bannerStyleSheet(const QPalette& palette, Banner kind, const QString& selector) {
    const BannerColors c = banner(palette, kind);
    return QStringLiteral("%1 { background: %2; color: %3; border: 1px solid %4; border-radius: 4px; "
                          "padding: 6px; }")
        .arg(selector, c.background.name(), c.foreground.name(), c.border.name());
}

QColor ThemeColors::status(const QPalette& palette, Status status) {
    const bool dark = isDark(palette);
    QColor c;
    switch (status) {
    case Status::good:
        c = dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
        break;
    case Status::caution:
        c = dark ? QColor(0xff, 0xd5, 0x4f) : QColor(0x8d, 0x6e, 0x00);
        break;
    case Status::bad:
        c = dark ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28);
        break;
    }
    return withContrast(c,
                        {palette.color(QPalette::Window), palette.color(QPalette::Base),
                         palette.color(QPalette::AlternateBase)},
                        kTextContrast, dark);
}

QColor ThemeColors::status(Status s) {
    return status(QGuiApplication::palette(), s);
}

QString ThemeColors::statusHtml(const QPalette& palette, Status s, const QString& html, bool bold) {
    const QString tag = bold ? QStringLiteral("b") : QStringLiteral("span");
    return QStringLiteral("<%1 style='color:%2'>%3</%1>").arg(tag, status(palette, s).name(), html);
}

QColor ThemeColors::category(int index) {
    // Eight of Tableau's 10 categorical hues at a relative luminance of 0.18 to 0.24: at least 3:1 against
    // white and #efefef and against #1f1f1f to #2d2d2d, so the same colour reads on a light and a dark plot.
    static const QColor colors[] = {QColor(0x21, 0x7e, 0xbe), QColor(0xd6, 0x64, 0x00),
                                    QColor(0x28, 0x91, 0x28), QColor(0xdc, 0x3d, 0x3e),
                                    QColor(0x95, 0x68, 0xbd), QColor(0xa7, 0x68, 0x5c),
                                    QColor(0xda, 0x4b, 0xae), QColor(0x7b, 0x7b, 0x7b)};
    constexpr int n = int(sizeof(colors) / sizeof(colors[0]));
    return colors[((index % n) + n) % n];
}

QColor ThemeColors::textOn(const QColor& background) {
    return contrastRatio(Qt::black, background) >= contrastRatio(Qt::white, background) ? QColor(Qt::black)
                                                                                        : QColor(Qt::white);
}

QColor ThemeColors::over(const QColor& color, const QColor& background) {
    const double a = color.alphaF();
    return QColor::fromRgbF(float(a * color.redF() + (1 - a) * background.redF()),
                            float(a * color.greenF() + (1 - a) * background.greenF()),
                            float(a * color.blueF() + (1 - a) * background.blueF()));
}

QColor ThemeColors::withContrast(QColor color, std::initializer_list<QColor> backgrounds, double ratio,
                                 bool lighter) {
    auto enough = [&](const QColor& c) {
        return std::all_of(backgrounds.begin(), backgrounds.end(),
                           [&](const QColor& b) { return contrastRatio(c, b) >= ratio; });
    };
    for (int step = 0; step < 50 && !enough(color); ++step) {
        const float next = std::clamp(color.lightnessF() + (lighter ? 0.02f : -0.02f), 0.0f, 1.0f);
        color = QColor::fromHslF(color.hslHueF(), color.hslSaturationF(), next, color.alphaF());
        if (next == 0.0f || next == 1.0f) {
            break;
        }
    }
    return color;
}

double ThemeColors::relativeLuminance(const QColor& c) {
    const QColor rgb = c.toRgb();
    return 0.2126 * linear(rgb.redF()) + 0.7152 * linear(rgb.greenF()) + 0.0722 * linear(rgb.blueF());
}

double ThemeColors::contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace rs::app
