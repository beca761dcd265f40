// Redisson's counters have no mark of their own (docs/protocol/semaphores.md): an integer string is a semaphore or a
// latch only when a pattern declares its name, or when someone waits on it, which their waiters' channel says.
#include "kinds/lockscanner.h"
#include "kinds/lockscannerparts.h"

#include "kinds/locknamemap.h"
#include "redis/rediscommander.h"
#include "redis/replyjoin.h"

#include <memory>

namespace LockScope {

using namespace ScannerParts;

void LockScanner::readVouched(QList<KeySnapshot> candidates, QList<KeySnapshot> outside)
{
    // Two small batches: the values, then the listeners of the integers only. A monitor refreshes every key in its
    // pattern whose TTL an event says was set (an application's SET EX): most are no integer, and cost one read.
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    auto named = std::make_shared<QList<KeySnapshot>>(std::move(outside));
    auto values = std::make_shared<QList<RedisValue>>(named->size());
    QPointer<LockScanner> self(this);
    const auto join = batchJoin([self, snaps, named, values] {
        QList<KeySnapshot> integers;
        for (qsizetype i = 0; i < named->size(); ++i) {
            KeySnapshot &s = (*named)[i];
            const RedisValue &value = values->at(i);
            // A hash or another type answers GETRANGE with an error: nothing to vouch for.
            if (!value.isString())
                continue;
            if (isCounterValue(value.bytes())) {
                s.type = "string";
                s.value = value.bytes();
                integers << std::move(s);
            } else if (self->m_collectRejected) {
                self->m_rejected << s.name;
            }
        }
        if (integers.isEmpty())
            self->readRest(std::move(*snaps));
        else
            self->readVouchers(std::move(*snaps), std::move(integers));
    });
    const QByteArray valueEnd = QByteArray::number(kMaxStringToken);
    m_connection->cork();
    for (qsizetype i = 0; i < named->size(); ++i)
        m_connection->command({ "GETRANGE", named->at(i).name, "0", valueEnd },
            join->track([values, i](const RedisResult &r) { (*values)[i] = r.value; }));
    join->seal(this);
    m_connection->uncork();
}

void LockScanner::readVouchers(QList<KeySnapshot> candidates, QList<KeySnapshot> integers)
{
    struct Vouch
    {
        QByteArray channel; // the first vouching channel with listeners
        int listeners = 0;
    };
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    auto named = std::make_shared<QList<KeySnapshot>>(std::move(integers));
    auto vouches = std::make_shared<QList<Vouch>>(named->size());
    QPointer<LockScanner> self(this);
    const auto join = batchJoin([self, snaps, named, vouches] {
        for (qsizetype i = 0; i < named->size(); ++i) {
            KeySnapshot s = std::move((*named)[i]);
            const Vouch &vouch = vouches->at(i);
            if (vouch.listeners > 0) {
                s.library = "redisson";
                s.vouchedBy = vouch.channel;
                s.vouchers = vouch.listeners;
                if (classify(s).isLock()) {
                    snaps->append(std::move(s));
                    continue;
                }
            }
            if (self->m_collectRejected)
                self->m_rejected << s.name;
        }
        self->readRest(std::move(*snaps));
    });
    m_connection->cork();
    for (qsizetype i = 0; i < named->size(); ++i)
        for (const QByteArray &channel : LockNameMap::vouchingChannels(named->at(i).name))
            m_connection->command(
                { "PUBSUB", "NUMSUB", channel }, join->track([vouches, i, channel](const RedisResult &r) {
                    // Denied (an ACL without PUBSUB): nobody vouches.
                    const int n = r.ok() && r.value.size() == 2 ? int(r.value.at(1).toInteger()) : 0;
                    if (n > 0 && (*vouches)[i].listeners == 0)
                        (*vouches)[i] = { channel, n };
                }));
    join->seal(this);
    m_connection->uncork();
}

void LockScanner::findVouched(RedisCommander *node, const QByteArray &pattern)
{
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    node->command({ "PUBSUB", "CHANNELS", pattern }, [self, generation](const RedisResult &r) {
        if (!current(self, generation))
            return;
        // Denied (an ACL without PUBSUB) or refused: only declared names are found, as before.
        QList<QByteArray> names;
        if (r.ok())
            for (const RedisValue &channel : r.value.elements())
                names += LockNameMap::fromChannel(channel.bytes());
        names = self->newStringKeys(names); // inside the pattern, and not read already by a string cursor
        ++self->m_batchesInFlight;
        self->snapshot(names, std::nullopt);
        if (--self->m_scansLeft <= 0)
            self->walkEnded();
    });
}

} // namespace LockScope
