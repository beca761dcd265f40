#include "recording/recordedevent.h"

#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"
#include "monitor/lockrecord.h"

#include <QCryptographicHash>

namespace LockScope {

RecordedEvent RecordedEvent::fromLockEvent(const LockEvent &event, const QByteArray &server, const LockInfo *lock)
{
    RecordedEvent r;
    r.timeMs = event.timeMs;
    r.server = server;
    r.type = LockEvent::typeName(event.type);
    r.name = event.name;
    r.owner = event.owner;
    r.previousOwner = event.previousOwner;
    r.count = event.count;
    r.ttlMs = event.ttlMs;
    r.lateMs = event.lateMs;
    r.detail = event.detail;
    if (lock) {
        r.kind = LockInfo::kindName(lock->kind);
        r.library = lock->library;
    }
    return r;
}

QByteArray NameRedaction::hashed(const QByteArray &name)
{
    return "sha256:" + QCryptographicHash::hash(name, QCryptographicHash::Sha256).toHex().left(32);
}

QByteArray NameRedaction::apply(const QByteArray &name) const
{
    for (const QByteArray &glob : m_globs)
        if (globMatch(glob, name))
            return hashed(name);
    return name;
}

} // namespace LockScope
