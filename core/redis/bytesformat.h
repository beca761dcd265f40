#pragma once

#include <QByteArray>
#include <QString>

namespace LockScope {

// Lock names and owner tokens are arbitrary bytes; this renders them printable and unambiguous
// (\xNN for non-printable and non-UTF-8 bytes, backslash doubled), truncated past maxChars.
QString escapeBytes(const QByteArray &bytes, int maxChars = -1);

} // namespace LockScope
