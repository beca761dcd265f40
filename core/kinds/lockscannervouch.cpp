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
    struct Read
    {
        RedisValue value;
        QByteArray channel; // the first vouching channel with listeners
        int listeners = 0;
    };
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    auto named = std::make_shared<QList<KeySnapshot>>(std::move(outside));
    auto reads = std::make_shared<QList<Read>>(named->size());
    QPointer<LockScanner> self(this);
    const auto join = batchJoin([self, snaps, named, reads] {
        for (qsizetype i = 0; i < named->size(); ++i) {
            KeySnapshot s = std::move((*named)[i]);
            const Read &read = reads->at(i);
            if (read.value.isString() && read.listeners > 0 && isCounterValue(read.value.bytes())) {
                s.type = "string";
                s.value = read.value.bytes();
                s.library = "redisson";
                s.vouchedBy = read.channel;
                s.vouchers = read.listeners;
                if (classify(s).isLock()) {
                    snaps->append(std::move(s));
                    continue;
                }
            }
            if (self->m_collectRejected && read.value.isString())
                self->m_rejected << s.name;
        }
        self->readRest(std::move(*snaps));
    });
    const QByteArray valueEnd = QByteArray::number(kMaxStringToken);
    m_connection->cork();
    for (qsizetype i = 0; i < named->size(); ++i) {
        const QByteArray &name = named->at(i).name;
        // A hash answers GETRANGE with WRONGTYPE: nothing to vouch for.
        m_connection->command({ "GETRANGE", name, "0", valueEnd },
            join->track([reads, i](const RedisResult &r) { (*reads)[i].value = r.value; }));
        for (const QByteArray &channel : LockNameMap::vouchingChannels(name))
            m_connection->command(
                { "PUBSUB", "NUMSUB", channel }, join->track([reads, i, channel](const RedisResult &r) {
                    // Denied (an ACL without PUBSUB): nobody vouches.
                    const int n = r.ok() && r.value.size() == 2 ? int(r.value.at(1).toInteger()) : 0;
                    if (n > 0 && (*reads)[i].listeners == 0) {
                        (*reads)[i].channel = channel;
                        (*reads)[i].listeners = n;
                    }
                }));
    }
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
