#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QTranslator>

namespace LockScope::I18n {

QString languageArgument(const QStringList &arguments)
{
    for (int i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        if (arg == QLatin1String("--lang") || arg == QLatin1String("-lang"))
            return arguments.value(i + 1);
        if (arg.startsWith(QLatin1String("--lang=")))
            return arg.mid(7);
    }
    return {};
}

QStringList available()
{
    return { QStringLiteral("en"), QStringLiteral("zh_CN") };
}

bool install(const QString &lang)
{
    if (!lang.isEmpty() && !available().contains(lang))
        return false;
    const QLocale locale = lang.isEmpty() ? QLocale::system() : QLocale(lang);
    if (!lang.isEmpty())
        QLocale::setDefault(locale);
    auto *app = QCoreApplication::instance();
    // What an earlier call installed goes: translators are searched newest first, and English's file holds only plural
    // forms, so a Chinese one left behind answered every other text after a switch back to English.
    static QList<QPointer<QTranslator>> ours;
    for (const QPointer<QTranslator> &translator : std::as_const(ours))
        if (translator) {
            QCoreApplication::removeTranslator(translator);
            delete translator;
        }
    ours.clear();
    const QString installed
        = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/lockscope/translations");
    // An installed copy first (share/lockscope/translations beside bin/, where a corrected translation can be
    // dropped), then the embedded one.
    const auto load = [&](const QLocale &wanted) {
        auto *translator = new QTranslator(app);
        for (const QString &directory : { installed, QStringLiteral(":/i18n") }) {
            // Tries lockscope_zh_Hans_CN, lockscope_zh_CN, lockscope_zh, ... for the locale's UI languages.
            if (translator->load(wanted, QStringLiteral("lockscope"), QStringLiteral("_"), directory)) {
                QCoreApplication::installTranslator(translator);
                ours << translator;
                return true;
            }
        }
        delete translator;
        return false;
    };
    // English is the source language. Its file holds only the plural forms of the texts counted with %n ("1 lock",
    // "2 locks"), and is what a language not shipped falls back to. A system locale such as en_US must not pick up
    // anything else by fallback.
    const bool english = locale.language() == QLocale::English || locale.language() == QLocale::C;
    if (english || !load(locale)) {
        load(QLocale(QLocale::English));
        return english || lang.isEmpty();
    }
    // Qt's own strings (standard buttons, context menus) from the system's Qt translations, when installed.
    auto *qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
            QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        ours << qt;
    } else
        delete qt;
    return true;
}

} // namespace LockScope::I18n
