#pragma once

#include "redis/redisvalue.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace LockScope {

// Redis Cluster's key-to-slot rule: CRC16 (XMODEM) of the key, or of the part between the first '{' and the
// first '}' after it when that part is not empty, modulo 16384.
quint16 keySlot(const QByteArray &key);

struct ClusterNode
{
    QString host;
    quint16 port = 0;
    QByteArray id;
    bool operator==(const ClusterNode &other) const { return host == other.host && port == other.port; }
};

// Which master serves which slots (with its replicas), read from CLUSTER SHARDS (Redis 7) or CLUSTER SLOTS.
class SlotMap
{
public:
    struct Range
    {
        quint16 first = 0;
        quint16 last = 0;
        ClusterNode master;
        QList<ClusterNode> replicas;
    };

    static SlotMap fromShards(const RedisValue &reply, QString *error = nullptr);
    static SlotMap fromSlots(const RedisValue &reply, QString *error = nullptr);

    bool isEmpty() const { return m_ranges.isEmpty(); }
    // The master serving a slot; port 0 when no range covers it.
    ClusterNode masterFor(quint16 slot) const;
    QList<ClusterNode> masters() const; // each once, in slot order
    const QList<Range> &ranges() const { return m_ranges; }
    int coveredSlots() const;

private:
    void sortRanges();
    QList<Range> m_ranges; // sorted by first slot
};

} // namespace LockScope
