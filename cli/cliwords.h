#pragma once

#include "kinds/lockclassifier.h"

#include <QByteArray>
#include <QString>

namespace LockScope::Cli {

// The words of a lock's kind, mode and confidence in list, show and top. In English they are the ids --kind, --library
// and JSON use ("readwrite", "read", "low"), which scripts that read the text rely on; in another language they are
// that language's words, as the console shows them (issue 47). --json always gives the ids.
QString kindWord(LockInfo::Kind kind);
QString kindWord(const QByteArray &kindId); // a LockInfo::kindName(); an id it does not know, as it is
QString modeWord(const QByteArray &mode);
QString confidenceWord(LockInfo::Confidence confidence);

} // namespace LockScope::Cli
