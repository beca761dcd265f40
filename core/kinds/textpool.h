#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace LockScope::TextPool {

// One shared copy of the texts that repeat from lock to lock: evidence and warnings (a hundred thousand locks say
// "owners are <uuid>:<decimal thread id>" alike), library ids, client ids, hosts. A listing of a million locks then
// holds each such text once instead of once per lock (issue 18: per-lock memory). Per thread, and bounded: a pool that
// fills up starts afresh, so texts that never repeat cost nothing but the lookup.
QString text(const QString &text);
QByteArray bytes(const QByteArray &bytes);
// A whole list of texts, its strings pooled too: most locks give the very same evidence, and then share one list.
QStringList texts(const QStringList &texts);

} // namespace LockScope::TextPool
