#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace LockScope {

// Lock names and owner tokens are arbitrary bytes; this renders them printable and unambiguous
// (\xNN for non-printable and non-UTF-8 bytes, backslash doubled), truncated past maxChars.
QString escapeBytes(const QByteArray &bytes, int maxChars = -1);
// Several names, each escaped (at most maxChars each), joined by ", ".
QString escapeList(const QList<QByteArray> &names, int maxChars = 200);
// For JSON, which holds text: the bytes as UTF-8 when they are, else escaped as escapeBytes() shows them, whole.
QString jsonText(const QByteArray &bytes);

} // namespace LockScope
