#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace LockScope::Cli {

// How many terminal columns text takes: two for each wide character (CJK ideographs, kana, hangul, fullwidth forms),
// none for a combining mark, one otherwise. A Chinese header is twice as wide as its character count.
int displayWidth(const QString &text);

// Rows as columns padded to their widest cell by display width, so that headers and cells line up on a terminal in
// any language; the last column is not padded, and each line ends with a newline.
QString textTable(const QList<QStringList> &rows);

} // namespace LockScope::Cli
