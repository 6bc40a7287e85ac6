// SPDX-License-Identifier: MIT
#include "ui/Theme.h"

#include "model/ThemeColors.h"

#include <QApplication>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
#include <QStyleHints>
#endif

namespace rs::app {

namespace {

const QString kSettingsKey = QStringLiteral("appearance/theme");

struct ThemeState {
    bool captured = false;
    QString systemStyle; ///< the style the application started with
    Theme::Choice current = Theme::Choice::system;
    bool watching = false;
};

ThemeState& state() {
    static ThemeState s;
    return s;
}

void useFusion(const QPalette& palette) {
    if (QApplication::style()->name().compare(QStringLiteral("fusion"), Qt::CaseInsensitive) != 0) {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    }
    QApplication::setPalette(palette);
}

void useSystem() {
    if (QApplication::style()->name().compare(state().systemStyle, Qt::CaseInsensitive) != 0) {
        if (QStyle* style = QStyleFactory::create(state().systemStyle)) {
            QApplication::setStyle(style);
        }
    }
    // A palette with no role set: the platform's (or the style's) palette, following its later changes.
    QApplication::setPalette(QPalette());
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    if (QGuiApplication::styleHints()->colorScheme() == Qt::ColorScheme::Dark &&
        !ThemeColors::isDark(QApplication::palette())) {
        useFusion(Theme::darkPalette());
    }
#endif
}

} // namespace

std::optional<Theme::Choice> Theme::fromName(const QString& name) {
    for (Choice c : {Choice::system, Choice::light, Choice::dark}) {
        if (name.compare(Theme::name(c), Qt::CaseInsensitive) == 0) {
            return c;
        }
    }
    return std::nullopt;
}

QString Theme::name(Choice choice) {
    switch (choice) {
    case Choice::system:
        return QStringLiteral("system");
    case Choice::light:
        return QStringLiteral("light");
    case Choice::dark:
        return QStringLiteral("dark");
    }
    return QStringLiteral("system");
}

Theme::Choice Theme::saved() {
    return fromName(QSettings().value(kSettingsKey).toString()).value_or(Choice::system);
}

void Theme::save(Choice choice) {
    QSettings().setValue(kSettingsKey, name(choice));
}

Theme::Choice Theme::current() {
    return state().current;
}

void Theme::apply(Choice choice) {
    ThemeState& s = state();
    if (!s.captured) {
        s.captured = true;
        s.systemStyle = QApplication::style()->name();
    }
    s.current = choice;
    switch (choice) {
    case Choice::system:
        useSystem();
        break;
    case Choice::light:
        useFusion(lightPalette());
        break;
    case Choice::dark:
        useFusion(darkPalette());
        break;
    }
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    if (!s.watching) {
        s.watching = true;
        QObject::connect(QGuiApplication::styleHints(), &QStyleHints::colorSchemeChanged, qApp, [] {
            if (state().current == Choice::system) {
                useSystem();
            }
        });
    }
#endif
}

QPalette Theme::darkPalette() {
    const QColor window(0x2d, 0x2d, 0x2d), text(0xe8, 0xe8, 0xe8), base(0x1f, 0x1f, 0x1f),
        alternateBase(0x26, 0x26, 0x26), button(0x35, 0x35, 0x35), disabledText(0x80, 0x80, 0x80);
    QPalette p;
    for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool disabled = g == QPalette::Disabled;
        p.setColor(g, QPalette::Window, window);
        p.setColor(g, QPalette::WindowText, disabled ? disabledText : text);
        p.setColor(g, QPalette::Base, base);
        p.setColor(g, QPalette::AlternateBase, alternateBase);
        p.setColor(g, QPalette::Text, disabled ? disabledText : text);
        p.setColor(g, QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
        p.setColor(g, QPalette::Button, button);
        p.setColor(g, QPalette::ButtonText, disabled ? disabledText : text);
        p.setColor(g, QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
        p.setColor(g, QPalette::Light, QColor(0x4a, 0x4a, 0x4a));
        p.setColor(g, QPalette::Midlight, QColor(0x3c, 0x3c, 0x3c));
        p.setColor(g, QPalette::Mid, QColor(0x5a, 0x5a, 0x5a));
        p.setColor(g, QPalette::Dark, QColor(0x1a, 0x1a, 0x1a));
        p.setColor(g, QPalette::Shadow, QColor(0x0d, 0x0d, 0x0d));
        p.setColor(g, QPalette::Highlight, disabled ? QColor(0x4a, 0x4a, 0x4a) : QColor(0x2f, 0x6d, 0xb5));
        p.setColor(g, QPalette::HighlightedText, disabled ? disabledText : QColor(Qt::white));
        p.setColor(g, QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
        p.setColor(g, QPalette::ToolTipText, text);
        p.setColor(g, QPalette::Link, QColor(0x7a, 0xb8, 0xff));
        p.setColor(g, QPalette::LinkVisited, QColor(0xc9, 0xa6, 0xff));
    }
    return p;
}

QPalette Theme::lightPalette() {
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion->standardPalette();
    delete fusion;
    const QColor placeholder = ThemeColors::withContrast(
        QColor(0x70, 0x70, 0x70),
        {p.color(QPalette::Window), p.color(QPalette::Base), p.color(QPalette::AlternateBase)},
        ThemeColors::kTextContrast, false);
    p.setColor(QPalette::Active, QPalette::PlaceholderText, placeholder);
    p.setColor(QPalette::Inactive, QPalette::PlaceholderText, placeholder);
    return p;
}

} // namespace rs::app
