#include "recording/recordedevent.h"

#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"
#include "monitor/lockrecord.h"

#include <QCryptographicHash>
#include <QHash>

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

bool RecordedEvent::toLockEvent(LockEvent *event) const
{
    static const QHash<QByteArray, LockEvent::Type> types = [] {
        QHash<QByteArray, LockEvent::Type> all;
        for (LockEvent::Type t : { LockEvent::Type::Acquired, LockEvent::Type::Reentered, LockEvent::Type::Released,
                 LockEvent::Type::Renewed, LockEvent::Type::Expired, LockEvent::Type::ForceReleased,
                 LockEvent::Type::OwnerChanged, LockEvent::Type::QueueChanged, LockEvent::Type::Lost,
                 LockEvent::Type::WakeUpMissed })
            all.insert(LockEvent::typeName(t), t);
        return all;
    }();
    const auto it = types.constFind(type);
    if (it == types.cend())
        return false;
    event->timeMs = timeMs;
    event->type = *it;
    event->name = name;
    event->owner = owner;
    event->previousOwner = previousOwner;
    event->count = count;
    event->ttlMs = ttlMs;
    event->lateMs = lateMs;
    event->detail = detail;
    return true;
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
