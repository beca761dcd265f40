#pragma once

#include <QString>
#include <QStringList>

namespace LockScope::I18n {

// The value of --lang LANG or --lang=LANG, read before QCommandLineParser exists so that the help texts it
// is given can already be translated. Empty when absent.
QString languageArgument(const QStringList &arguments);

// The languages shipped: "en" (the source language) and "zh_CN".
QStringList available();

// Installs LockScope's translations (an installed copy beside the binary, else the one embedded in it) and Qt's
// own for lang; empty lang: the system locale's preferred languages. Returns false, and stays in English, when lang
// is not shipped.
bool install(const QString &lang);

} // namespace LockScope::I18n
