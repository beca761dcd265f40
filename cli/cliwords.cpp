#include "cliwords.h"

#include "kinds/locklayouts.h"
#include "models/locktexts.h"

#include <QCoreApplication>
#include <QLocale>

namespace LockScope::Cli {

namespace {
bool inEnglish()
{
    const QLocale::Language language = QLocale().language();
    return language == QLocale::English || language == QLocale::C;
}
} // namespace

QString kindWord(LockInfo::Kind kind)
{
    return inEnglish() ? QString::fromLatin1(LockInfo::kindName(kind)) : LockTexts::kindText(kind);
}

QString kindWord(const QByteArray &kindId)
{
    return inEnglish() ? QString::fromLatin1(kindId) : LockLayouts::kindText(kindId);
}

QString modeWord(const QByteArray &mode)
{
    return inEnglish() ? QString::fromLatin1(mode) : LockLayouts::modeText(mode);
}

QString confidenceWord(LockInfo::Confidence confidence)
{
    if (inEnglish())
        return QString::fromLatin1(LockInfo::confidenceName(confidence));
    switch (confidence) {
    case LockInfo::Confidence::High:
        return QCoreApplication::translate("Cli", "high", "confidence");
    case LockInfo::Confidence::Medium:
        return QCoreApplication::translate("Cli", "medium", "confidence");
    case LockInfo::Confidence::Low:
        break;
    }
    return QCoreApplication::translate("Cli", "low", "confidence");
}

} // namespace LockScope::Cli
