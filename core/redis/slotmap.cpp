#include "redis/slotmap.h"

#include <algorithm>

namespace LockScope {

namespace {
quint16 crc16(const char *data, qsizetype length)
{
    // CRC-16/XMODEM (polynomial 0x1021, initial 0), bit by bit: a handful of keys per script, no table needed.
    quint16 crc = 0;
    for (qsizetype i = 0; i < length; ++i) {
        crc ^= quint16(quint8(data[i])) << 8;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? quint16((crc << 1) ^ 0x1021) : quint16(crc << 1);
    }
    return crc;
}

QString text(const RedisValue &v)
{
    return QString::fromUtf8(v.bytes());
}

// A map reply as RESP2 sends it: a flat array of alternating names and values.
RedisValue field(const RedisValue &map, const QByteArray &name)
{
    for (int i = 0; i + 1 < map.size(); i += 2)
        if (map.at(i).bytes() == name)
            return map.at(i + 1);
    return {};
}

// The router fills a 16384-entry slot table from these ranges: one reaching past it (a broken or hostile server's
// map) would be written out of bounds.
bool validRange(qint64 first, qint64 last)
{
    return first >= 0 && first <= last && last < 16384;
}
} // namespace

quint16 keySlot(const QByteArray &key)
{
    const qsizetype open = key.indexOf('{');
    if (open >= 0) {
        const qsizetype close = key.indexOf('}', open + 1);
        if (close > open + 1)
            return crc16(key.constData() + open + 1, close - open - 1) % 16384;
    }
    return crc16(key.constData(), key.size()) % 16384;
}

SlotMap SlotMap::fromShards(const RedisValue &reply, QString *error)
{
    SlotMap map;
    for (const RedisValue &shard : reply.elements()) {
        const RedisValue slotList = field(shard, "slots");
        ClusterNode master;
        QList<ClusterNode> replicas;
        const RedisValue nodes = field(shard, "nodes"); // kept alive: the loop walks its elements
        for (const RedisValue &node : nodes.elements()) {
            ClusterNode n;
            n.host = text(field(node, "ip"));
            n.port = quint16(field(node, "port").toInteger());
            n.id = field(node, "id").bytes();
            // Redis 7.0 calls a replica "loading" until its replication offset moves: it is attached all the same.
            const QByteArray health = field(node, "health").bytes();
            if (field(node, "role").bytes() == "master") {
                if (health == "online")
                    master = n;
            } else if (health != "fail") {
                replicas << n;
            }
        }
        if (master.port == 0)
            continue; // a shard whose master is failing over: its slots are uncovered until the next refresh
        for (int i = 0; i + 1 < slotList.size(); i += 2) {
            const qint64 first = slotList.at(i).toInteger(), last = slotList.at(i + 1).toInteger();
            if (validRange(first, last))
                map.m_ranges.append({ quint16(first), quint16(last), master, replicas });
        }
    }
    map.sortRanges();
    if (map.isEmpty() && error)
        *error = QStringLiteral("CLUSTER SHARDS named no slots");
    return map;
}

SlotMap SlotMap::fromSlots(const RedisValue &reply, QString *error)
{
    SlotMap map;
    for (const RedisValue &entry : reply.elements()) {
        // Each node is [ip, port, id, ...]: a range whose master is not (a broken or foreign server) is left out, as
        // is a replica that is not, rather than indexed into.
        if (entry.size() < 3 || entry.at(2).size() < 2 || !validRange(entry.at(0).toInteger(), entry.at(1).toInteger()))
            continue;
        Range range;
        range.first = quint16(entry.at(0).toInteger());
        range.last = quint16(entry.at(1).toInteger());
        for (int i = 2; i < entry.size(); ++i) {
            if (entry.at(i).size() < 2)
                continue;
            ClusterNode n;
            n.host = text(entry.at(i).at(0));
            n.port = quint16(entry.at(i).at(1).toInteger());
            if (entry.at(i).size() > 2)
                n.id = entry.at(i).at(2).bytes();
            if (i == 2)
                range.master = n;
            else
                range.replicas << n;
        }
        map.m_ranges << range;
    }
    map.sortRanges();
    if (map.isEmpty() && error)
        *error = QStringLiteral("CLUSTER SLOTS named no slots");
    return map;
}

void SlotMap::sortRanges()
{
    std::sort(m_ranges.begin(), m_ranges.end(), [](const Range &a, const Range &b) { return a.first < b.first; });
}

ClusterNode SlotMap::masterFor(quint16 slot) const
{
    // The last range starting at or before the slot, if it reaches the slot.
    auto it = std::upper_bound(
        m_ranges.cbegin(), m_ranges.cend(), slot, [](quint16 s, const Range &r) { return s < r.first; });
    if (it == m_ranges.cbegin())
        return {};
    --it;
    return slot <= it->last ? it->master : ClusterNode {};
}

QList<ClusterNode> SlotMap::masters() const
{
    QList<ClusterNode> masters;
    for (const Range &r : m_ranges)
        if (!masters.contains(r.master))
            masters << r.master;
    return masters;
}

int SlotMap::coveredSlots() const
{
    int covered = 0;
    for (const Range &r : m_ranges)
        covered += r.last - r.first + 1;
    return covered;
}

} // namespace LockScope
