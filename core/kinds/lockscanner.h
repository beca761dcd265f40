#pragma once

#include "base/rediserror.h"
#include "kinds/keyglob.h"
#include "kinds/locklayout.h"
#include "kinds/walkedkeys.h"
#include "redis/redisresult.h"
#include "redis/redissubscriptions.h"

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace LockScope {

class RedisCommander;
class ReplyJoin;

// One pass of discovery over every node that holds data (each master of a cluster): the SCAN cursors the layouts ask
// for (LockLayout::scanCursors: MATCH, COUNT, TYPE; never KEYS, never a server-side script), then per batch one
// pipeline that reads each key as its cursor says (a hash's fields, a string's first bytes, each with its PTTL), then
// the aux keys of the lock-shaped ones, then classification. Reads only: it runs on a read-only connection, and with
// an ACL user allowed nothing but reads, pub/sub and PING.
class LockScanner : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray pattern = "*";
        int count = 1000; // SCAN COUNT: keys the server looks at per call
        // The walk plan (docs/design.md#monitor, "what the walks cost the server"). Off, the default: one untyped walk
        // per MATCH pattern (one in all with "*"), each key it returns sent to the read its layouts want by its TYPE
        // and name. On: one SCAN ... TYPE walk per cursor the layouts ask for (Redis 6+), which costs the server a
        // walk of the whole keyspace each.
        bool typedWalks = false;
        bool shardWaiters = false; // count waiters on shard channels too (PUBSUB SHARDNUMSUB; Redis 7)
        // Plain string locks are looked for only here, whatever the number of globs (the keys are matched here).
        StringLockPatterns stringPatterns;
        // Lock hashes' aux reads (a fencing token, a fair queue, readers' timeout keys) wait for the end of the walk,
        // and only the keys the walk returned are read: most lock hashes have none. Their locks are then reported at
        // the end of the pass, not as their batch completes: for one-shot lists. Only with the untyped plan and the
        // pattern "*", where the walk returns every key.
        bool deferAuxReads = false;
        // A node that cannot be reached (down, timing out) ends its own walk and is named in partial(); the others'
        // locks are still reported. Off: the pass fails with it (the monitor retries a whole pass).
        bool partialOnNodeFailure = false;
    };
    using Nodes = std::function<QList<RedisCommander *>()>;

    // Key reads go through connection (a router sends each to the key's node); SCAN goes to each of nodes(),
    // by default just connection.
    LockScanner(RedisCommander *connection, Options options, QObject *parent = nullptr);
    void setScanNodes(Nodes nodes) { m_nodes = std::move(nodes); }
    void setShardWaiters(bool on) { m_options.shardWaiters = on; }
    // The monitor's own shard subscriptions (it follows sharded releases on them): SHARDNUMSUB counts them too, and
    // they are no waiters.
    void setOwnSubscriptions(const RedisSubscriptions *own) { m_own = own; }

    void start();
    // The same snapshot and classification for named keys, without a SCAN (show NAME; a key the monitor refreshes).
    void readKeys(const QList<QByteArray> &keys);
    bool isRunning() const { return m_running; }
    // With partialOnNodeFailure, after finished(): the nodes the pass could not see, and why (empty: it saw them all).
    QStringList partial() const { return m_partial; }
    // After readKeys(): the keys that exist as hashes but are not lock-shaped (user data), so a caller need not
    // read them again on every change.
    QList<QByteArray> rejected() const { return m_rejected; }

signals:
    void locksFound(const QList<LockScope::LockInfo> &locks);
    void finished(const LockScope::RedisError &error, int keysSeen);

private:
    DiscoveryScope scope() const { return { m_options.pattern, m_options.stringPatterns }; }
    void scanFrom(RedisCommander *node, const ScanCursor &chain, const QByteArray &cursor);
    // The keys of one SCAN reply, counted as seen; a reply of another shape fails the pass (false).
    bool pageKeys(const RedisResult &r, QList<QByteArray> *keys);
    // A node's SCAN failed: with partialOnNodeFailure and an error of the node's reach (not a refusal), its walk ends
    // and the pass goes on without it (true); otherwise the pass fails (false).
    bool nodeFailed(RedisCommander *node, const RedisError &error);
    // kinds/lockscannerwalk.cpp: the untyped plan. One walk per MATCH pattern, the cursors it serves, and how its
    // keys are sorted: TYPE of each, then each to the first cursor that takes its type and name.
    struct Walk
    {
        QByteArray pattern;
        QList<ScanCursor> cursors;
    };
    static QList<Walk> walksFor(const QList<ScanCursor> &cursors, const QByteArray &scopePattern);
    void walkFrom(RedisCommander *node, int walk, const QByteArray &cursor);
    void sortByType(const QList<QByteArray> &keys, int walk);
    void route(const QList<QByteArray> &keys, const QList<QByteArray> &types, int walk);
    // The keys a string cursor found that this pass should read: inside the monitor's pattern, not read yet.
    QList<QByteArray> newStringKeys(const QList<QByteArray> &keys);
    // read: how the cursor that found them reads its keys; none: named keys, read as whatever they turn out to be.
    void snapshot(const QList<QByteArray> &keys, std::optional<ScanCursor::Read> read);
    // The hash cursor's keys: their first pages in one batch; the PTTL of those worth classifying comes with the aux
    // reads.
    void snapshotHashes(const QList<QByteArray> &keys);
    // A cursor over aux keys: each key's lock, once, as a candidate with no key of its own (LockRecogniser::
    // readKeyless reads it).
    void snapshotKeyless(const QList<QByteArray> &keys);
    // Named keys outside every string lock pattern that are no hash: those holding an integer with listeners on a
    // channel that vouches for them (LockRecogniser::vouchingChannelPatterns) join candidates as Redisson's.
    void readVouched(QList<KeySnapshot> candidates, QList<KeySnapshot> outside);
    // Its second step: the listeners on the vouching channels of the integers among them.
    void readVouchers(QList<KeySnapshot> candidates, QList<KeySnapshot> integers);
    // A walk's share of them: the names in node's channels matching a vouching pattern (PUBSUB CHANNELS), read by
    // name like the string cursors' keys.
    void findVouched(RedisCommander *node, const QByteArray &pattern);
    void readRest(QList<KeySnapshot> candidates);
    void readAux(QList<KeySnapshot> candidates);
    // Classifies a batch's snapshots and reports the locks among them; skip: indexes (ascending) left out.
    void emitLocks(const QList<KeySnapshot> &snapshots, const QList<int> &skip);
    // deferAuxReads: lock hashes whose aux reads wait for the walk's end; then read as the walk saw their keys.
    void deferAux(QList<KeySnapshot> candidates);
    void readSeenAux(QList<KeySnapshot> candidates);
    void readParked();
    void walkEnded(); // the last SCAN reply of the pass has come
    void batchDone();
    // Runs next once every reply tracked by the returned join is in, if the pass is still current and nothing failed.
    std::shared_ptr<ReplyJoin> batchJoin(std::function<void()> next);
    void fail(const RedisError &error);
    // Whether a reply still belongs to the pass that sent its command (not to one that failed or was restarted).
    static bool current(const QPointer<LockScanner> &self, quint64 generation);

    RedisCommander *m_connection;
    Nodes m_nodes;
    Options m_options;
    int m_scansLeft = 0; // nodes whose SCAN has not reached cursor 0 yet
    bool m_running = false;
    int m_keysSeen = 0;
    bool m_collectRejected = false;
    QStringList m_partial;
    bool m_scanDone = false; // the last SCAN reply (cursor 0) has come
    int m_batchesInFlight = 0; // batches whose reads are still on their way
    quint64 m_generation = 0;
    bool m_typeFilter = true; // typed walks: SCAN ... TYPE, until a server older than Redis 6 refuses it
    QList<Walk> m_walks; // the untyped plan's walks of this pass
    QList<QByteArray> m_rejected;
    QList<QByteArray> m_stringGlobs; // the string lock patterns: a named key matching one is read as a string too
    QList<QByteArray> m_sortedSetGlobs; // the sorted-set layouts' patterns: such a named key is read as a sorted set
    QSet<QByteArray> m_stringKeysSeen; // this pass's: a key in two string lock patterns is read once
    bool m_deferring = false; // deferAuxReads, and this pass's walk returns every key
    WalkedKeys m_walkedKeys; // while deferring: the keys the walk returned
    std::vector<QList<KeySnapshot>> m_parked; // while deferring: lock hashes waiting for the walk's end, by batch
    QSet<QByteArray> m_keylessNamesSeen; // this pass's: a lock's aux keys (a queue and its deadlines) name it once
    const RedisSubscriptions *m_own = nullptr;
};

} // namespace LockScope
