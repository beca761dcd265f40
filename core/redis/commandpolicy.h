#pragma once

#include <QByteArray>
#include <QList>

namespace LockScope {

// True for commands that cannot change data. Read-only mode lets nothing else reach the wire: an unknown
// command counts as a write, so a new Redis command is refused until someone looks at it.
bool isReadOnlyCommand(const QList<QByteArray> &argv);

} // namespace LockScope
