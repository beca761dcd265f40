#pragma once

#include "monitor/lockrecord.h"

#include <QHash>
#include <QObject>
#include <QTimer>

namespace LockScope {

class LockRecordStore;

// Whether a release reached the pub/sub namespace its waiters listen in: a release heard only on the plain channel
// while every waiter listens on the shard channel (or the other way round) wakes nobody, and they sleep until their
// TTL. Both messages of a "both" publisher come from one script but reach us on two connections, so each release
// is judged once both have had time to arrive.
class ReleaseNamespaceWatch : public QObject
{
    Q_OBJECT
public:
    explicit ReleaseNamespaceWatch(const LockRecordStore *records, QObject *parent = nullptr);

    // A release message arrived for these locks in one namespace; their waiters are compared with those counted
    // before it.
    void note(const QList<QByteArray> &names, bool sharded);

signals:
    void wakeUpMissed(const LockScope::LockEvent &event);

private:
    void check();

    struct ReleaseSeen
    {
        bool plain = false;
        bool sharded = false;
        int plainWaiters = -1; // as last counted before the release
        int shardWaiters = -1;
        qint64 atMs = 0;
    };
    const LockRecordStore *m_records;
    QHash<QByteArray, ReleaseSeen> m_seen;
    QTimer m_timer;
};

} // namespace LockScope
