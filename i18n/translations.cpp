#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
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
    // English is the source language: nothing to load, and a system locale such as en_US must not pick up
    // anything else by fallback.
    if (locale.language() == QLocale::English || locale.language() == QLocale::C)
        return true;

    auto *app = QCoreApplication::instance();
    auto *own = new QTranslator(app);
    // Tries lockscope_zh_Hans_CN, lockscope_zh_CN, lockscope_zh, ... for the locale's UI languages: an installed copy
    // first (share/lockscope/translations beside bin/, where a corrected translation can be dropped), then the
    // embedded one.
    const QString installed
        = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/lockscope/translations");
    bool loaded = false;
    for (const QString &directory : { installed, QStringLiteral(":/i18n") }) {
        if ((loaded = own->load(locale, QStringLiteral("lockscope"), QStringLiteral("_"), directory)))
            break;
    }
    if (!loaded) {
        delete own;
        return lang.isEmpty();
    }
    QCoreApplication::installTranslator(own);
    // Qt's own strings (standard buttons, context menus) from the system's Qt translations, when installed.
    auto *qt = new QTranslator(app);
    if (qt->load(
            locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return true;
}

} // namespace LockScope::I18n
