#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace LockScope {

// Lock names and owner tokens are arbitrary bytes; this renders them printable and unambiguous
// (\xNN for non-printable and non-UTF-8 bytes, backslash doubled), truncated past maxChars.
QString escapeBytes(const QByteArray &bytes, int maxChars = -1);
// What a person types back: escapeBytes()'s output turned into the bytes it shows, so that a name copied from `list`
// or `show` addresses that very key. "\\xNN" (two hex digits) is the byte NN and "\\\\" one backslash; any other
// backslash is taken as written, since escapeBytes() never prints one alone.
QByteArray unescapeBytes(const QString &text);
// Bytes given as hex digits (spaces allowed between bytes); std::nullopt unless every character is a hex digit or a
// space and the digits pair up.
std::optional<QByteArray> bytesFromHex(const QString &text);
// Several names, each escaped (at most maxChars each), joined by ", ".
QString escapeList(const QList<QByteArray> &names, int maxChars = 200);
// For JSON, which holds text: the bytes as UTF-8 when they are, else escaped as escapeBytes() shows them, whole.
QString jsonText(const QByteArray &bytes);

} // namespace LockScope
