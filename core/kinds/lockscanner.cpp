#include "kinds/lockscanner.h"

#include "kinds/auxreader.h"
#include "kinds/locklayouts.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"
#include "kinds/sortedset/sortedsetlayout.h"
#include "redis/rediscommander.h"
#include "redis/replyjoin.h"

#include <QDateTime>

#include <algorithm>
#include <limits>
#include <memory>

namespace LockScope {

namespace {
// Worth reading aux keys for: every field seen is an owner (a writer's included) or a read-write lock's "mode".
bool lockShaped(const KeySnapshot &s)
{
    bool anyOwner = false;
    for (const auto &field : s.fields) {
        const bool owner = isOwnerField(field.first) || field.first.endsWith(":write") || field.first.count(':') >= 2;
        if (!owner && field.first != "mode")
            return false;
        anyOwner = anyOwner || owner;
    }
    return anyOwner;
}
// A hash candidate of the hash cursor whose PTTL is not read yet: it is read with the aux keys, for the hashes that
// turned out worth it only (a walk's hashes are mostly user data).
constexpr qint64 kPttlUnread = std::numeric_limits<qint64>::min();

// A snapshot's type, shared by all of them rather than allocated for each.
const QByteArray &typeName(const char *name)
{
    static const QByteArray hash("hash"), string("string"), zset("zset"), none("none");
    return qstrcmp(name, "hash") == 0  ? hash
        : qstrcmp(name, "string") == 0 ? string
        : qstrcmp(name, "zset") == 0   ? zset
                                       : none;
}

// Whether a hash another layout takes by its first page could be a lock, whatever its TTL turns out to be.
bool mayBeLockWhateverItsTtl(KeySnapshot s)
{
    s.pttlMs = -1;
    if (classify(s).isLock())
        return true;
    s.pttlMs = 1;
    return classify(s).isLock();
}
} // namespace

LockScanner::LockScanner(RedisCommander *connection, Options options, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_options(std::move(options))
{
    m_stringGlobs = m_options.stringPatterns.scanGlobs();
    for (const ScanCursor &cursor : LockLayouts::scanCursors(scope()))
        if (cursor.read == ScanCursor::Read::SortedSet)
            m_sortedSetGlobs += cursor.filter.isEmpty() ? QList<QByteArray> { cursor.pattern } : cursor.filter;
}

void LockScanner::start()
{
    if (m_running)
        return;
    m_running = true;
    m_keysSeen = 0;
    m_typeFilter = m_typeFilter && m_options.typedWalks;
    m_collectRejected = false;
    m_scanDone = false;
    m_batchesInFlight = 0;
    m_stringKeysSeen.clear();
    m_keylessNamesSeen.clear();
    ++m_generation;
    const QList<RedisCommander *> nodes = m_nodes ? m_nodes() : QList<RedisCommander *> { m_connection };
    const QList<ScanCursor> chains = LockLayouts::scanCursors(scope());
    m_walks = m_typeFilter ? QList<Walk>() : walksFor(chains, m_options.pattern);
    // Aux reads wait for the end of the walk only where the walk returns every key there is.
    m_deferring = m_options.deferAuxReads && m_walks.size() == 1 && m_walks.first().pattern == "*";
    m_walkedKeys.clear();
    m_parked.clear();
    m_scansLeft = int(nodes.size() * (m_typeFilter ? chains.size() : m_walks.size()));
    if (nodes.isEmpty()) {
        m_scanDone = true;
        ++m_batchesInFlight;
        readAux({});
        return;
    }
    // Every cursor of every node leaves in one write: the nodes work side by side.
    m_connection->cork();
    for (RedisCommander *node : nodes) {
        if (m_typeFilter) {
            for (const ScanCursor &chain : chains)
                scanFrom(node, chain, "0");
        } else {
            for (int walk = 0; walk < m_walks.size(); ++walk)
                walkFrom(node, walk, "0");
        }
    }
    m_connection->uncork();
}

void LockScanner::readKeys(const QList<QByteArray> &keys)
{
    if (m_running)
        return;
    m_running = true;
    m_keysSeen = int(keys.size());
    m_rejected.clear();
    m_collectRejected = true;
    m_deferring = false;
    m_scanDone = true;
    m_batchesInFlight = 1;
    ++m_generation;
    snapshot(keys, std::nullopt);
}

void LockScanner::fail(const RedisError &error)
{
    if (!m_running)
        return;
    m_running = false;
    m_parked.clear();
    ++m_generation; // whatever is still on its way belongs to a pass that is over
    emit finished(error, m_keysSeen);
}

void LockScanner::batchDone()
{
    if (--m_batchesInFlight == 0 && m_scanDone) {
        m_running = false;
        emit finished({}, m_keysSeen);
    }
}

bool LockScanner::current(const QPointer<LockScanner> &self, quint64 generation)
{
    return self && self->m_running && self->m_generation == generation;
}

std::shared_ptr<ReplyJoin> LockScanner::batchJoin(std::function<void()> next)
{
    // A lost connection or a deadline fails the pass; replies for a pass that is over are dropped.
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    return ReplyJoin::create([self, generation, next = std::move(next)](const RedisError &error) {
        if (!current(self, generation))
            return;
        if (error.isError())
            self->fail(error);
        else
            next();
    });
}

void LockScanner::scanFrom(RedisCommander *node, const ScanCursor &chain, const QByteArray &cursor)
{
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    QList<QByteArray> argv { "SCAN", cursor, "MATCH", chain.pattern, "COUNT", QByteArray::number(m_options.count) };
    const bool typed = m_typeFilter && !chain.type.isEmpty();
    if (typed)
        argv << "TYPE" << chain.type;
    QPointer<RedisCommander> target(node);
    node->command(argv, [self, generation, chain, cursor, target, typed](const RedisResult &r) {
        if (!current(self, generation))
            return;
        // Decided by what this request carried, not by the filter's state now: every cursor leaves at once, so the
        // others' refusals arrive after the first one has already turned the filter off.
        if (typed && r.error.kind() == RedisError::Kind::Reply && r.error.code() == "ERR") {
            // Redis before 6 has no SCAN ... TYPE and refuses it as a plain ERR (a syntax error): scan everything; the
            // reads answer WRONGTYPE for the rest. A denied SCAN is NOPERM, a Permission error, and fails below.
            self->m_typeFilter = false;
            if (target)
                self->scanFrom(target, chain, cursor);
            return;
        }
        QList<QByteArray> keys;
        if (!self->pageKeys(r, &keys))
            return;
        if (!chain.filter.isEmpty())
            keys.removeIf([&chain](const QByteArray &key) {
                return std::none_of(chain.filter.cbegin(), chain.filter.cend(),
                    [&key](const QByteArray &glob) { return globMatch(glob, key); });
            });
        if (chain.read == ScanCursor::Read::String)
            keys = self->newStringKeys(keys);
        const QByteArray next = r.value.at(0).bytes();
        ++self->m_batchesInFlight;
        // The next SCAN leaves in the same write as this batch's reads: the server works on one while this
        // process classifies the other, instead of the two taking turns.
        self->m_connection->cork();
        self->snapshot(keys, chain.read);
        if (next == "0" || !target) {
            if (--self->m_scansLeft <= 0)
                self->walkEnded();
        } else {
            self->scanFrom(target, chain, next);
        }
        self->m_connection->uncork();
    });
}

bool LockScanner::pageKeys(const RedisResult &r, QList<QByteArray> *keys)
{
    if (!r.ok() || !r.value.isArray() || r.value.size() != 2) {
        fail(r.ok() ? RedisError(RedisError::Kind::Protocol, QStringLiteral("unexpected SCAN reply")) : r.error);
        return false;
    }
    keys->reserve(r.value.at(1).size());
    for (const RedisValue &k : r.value.at(1).elements())
        *keys << k.bytes();
    m_keysSeen += keys->size();
    return true;
}

QList<QByteArray> LockScanner::newStringKeys(const QList<QByteArray> &keys)
{
    QList<QByteArray> fresh;
    for (const QByteArray &key : keys) {
        // SCAN matched the string lock pattern; the monitor's own pattern still bounds what it shows.
        if (m_options.pattern != "*" && !globMatch(m_options.pattern, key))
            continue;
        if (m_stringKeysSeen.contains(key))
            continue;
        m_stringKeysSeen.insert(key);
        fresh << key;
    }
    return fresh;
}

void LockScanner::snapshot(const QList<QByteArray> &keys, std::optional<ScanCursor::Read> reads)
{
    const bool named = !reads;
    if (reads == ScanCursor::Read::AuxKeys) {
        snapshotKeyless(keys);
        return;
    }
    if (keys.isEmpty()) {
        readAux({});
        return;
    }
    if (reads == ScanCursor::Read::Hash) {
        snapshotHashes(keys);
        return;
    }
    auto snaps = std::make_shared<QList<KeySnapshot>>();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 mono = monotonicMs();
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    // The batch is complete when every reply is in, whichever node each key lives on.
    const auto join = batchJoin([self, snaps] { self->readRest(std::move(*snaps)); });
    const QByteArray valueEnd = QByteArray::number(kMaxStringToken); // GETRANGE's end is inclusive: one byte more
    m_connection->cork();
    for (const QByteArray &key : keys) {
        // Fields (or a string's value) and PTTL back to back in one pipeline
        // (docs/protocol/classification.md#reading-a-key). No MULTI: a monitor's ACL may allow reads only. HSCAN rather
        // than HGETALL: a small hash comes back whole in one page, while a huge user hash costs one page, not its 100k
        // fields, and is rejected by what that page shows. GETRANGE rather than GET, for the same reason: a big string
        // costs a token's length.
        // A cursor reads only its own type: without SCAN ... TYPE (Redis < 6) the hash cursor also returns strings
        // and the string cursors hashes, and each key must be read (and listed) by one cursor only. The other
        // types answer WRONGTYPE and are dropped below.
        const auto inGlobs = [&key](const QList<QByteArray> &globs) {
            return std::any_of(
                globs.cbegin(), globs.cend(), [&key](const QByteArray &glob) { return globMatch(glob, key); });
        };
        const bool hash = named || reads == ScanCursor::Read::Hash;
        const bool string = reads == ScanCursor::Read::String || (named && inGlobs(m_stringGlobs));
        const bool sortedSet = reads == ScanCursor::Read::SortedSet || (named && inGlobs(m_sortedSetGlobs));
        auto fields = std::make_shared<RedisValue>();
        auto value = std::make_shared<RedisValue>();
        auto members = std::make_shared<RedisValue>();
        auto memberCount = std::make_shared<qint64>(-1);
        if (hash)
            m_connection->command({ "HSCAN", key, "0", "COUNT", "64" },
                join->track([fields](const RedisResult &r) { *fields = r.value; }));
        if (string)
            m_connection->command(
                { "GETRANGE", key, "0", valueEnd }, join->track([value](const RedisResult &r) { *value = r.value; }));
        if (sortedSet) {
            // Its first members with their scores, and how many there are: a semaphore's permits, a store's tokens.
            m_connection->command(
                { "ZRANGE", key, "0", QByteArray::number(SortedSetLayout::kMembersRead - 1), "WITHSCORES" },
                join->track([members](const RedisResult &r) { *members = r.value; }));
            m_connection->command({ "ZCARD", key }, join->track([memberCount](const RedisResult &r) {
                if (r.ok())
                    *memberCount = r.value.toInteger();
            }));
        }
        m_connection->command({ "PTTL", key },
            join->track([self, generation, snaps, key, now, mono, fields, value, members, memberCount, named](
                            const RedisResult &r) {
                if (!r.ok() || !current(self, generation))
                    return;
                KeySnapshot s;
                s.name = key;
                s.nowMs = now;
                s.monoMs = mono;
                s.pttlMs = r.value.toInteger();
                if (fields->isArray() && fields->size() == 2 && fields->at(1).size() > 0) {
                    const RedisValue &page = fields->at(1);
                    s.type = typeName("hash");
                    s.partial = fields->at(0).bytes() != "0";
                    s.fields.reserve(page.size() / 2);
                    for (int i = 0; i + 1 < page.size(); i += 2)
                        s.fields.append({ page.at(i).bytes(), page.at(i + 1).bytes() });
                    s.library = self->m_options.stringPatterns.declaredLibrary(key);
                    // Redisson's shape, or another library's hash (a layout that classifies it from its first page).
                    if (lockShaped(s) || (!s.partial && classify(s).isLock())) {
                        snaps->append(std::move(s));
                        return;
                    }
                } else if (value->isString() && !value->bytes().isEmpty()) {
                    s.type = typeName("string");
                    s.stringPattern = true;
                    s.value = value->bytes();
                    s.library = self->m_options.stringPatterns.declaredLibrary(key);
                    if (classify(s).isLock()) {
                        snaps->append(std::move(s));
                        return;
                    }
                } else if (members->isArray() && members->size() >= 2 && *memberCount > 0) {
                    s.type = typeName("zset");
                    s.memberCount = *memberCount;
                    s.members.reserve(members->size() / 2);
                    for (int i = 0; i + 1 < members->size(); i += 2)
                        s.members.append({ members->at(i).bytes(), qint64(members->at(i + 1).bytes().toDouble()) });
                    s.library = self->m_options.stringPatterns.declaredLibrary(key);
                    if (classify(s).isLock()) {
                        snaps->append(std::move(s));
                        return;
                    }
                } else if (s.pttlMs == -2 && named && LockLayouts::mayOutliveItsKey(key)) {
                    s.type
                        = typeName("none"); // no key of its own: its aux keys may still be there (readAux reads them)
                    snaps->append(std::move(s));
                    return;
                } else {
                    return; // deleted between SCAN and now, or some other type: nothing to classify
                }
                if (self->m_collectRejected)
                    self->m_rejected << key;
            }));
    }
    join->seal(this);
    m_connection->uncork();
}

void LockScanner::snapshotHashes(const QList<QByteArray> &keys)
{
    // The hash cursor's keys, in one batch: the first page of each (HSCAN rather than HGETALL, as in snapshot()).
    // Their PTTL waits for the candidates (readAux): most hashes of a keyspace are user data, read for nothing.
    auto snaps = std::make_shared<QList<KeySnapshot>>();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 mono = monotonicMs();
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    const auto join = batchJoin([self, snaps] { self->readRest(std::move(*snaps)); });
    m_connection->commandEach({ "HSCAN" }, keys, { "0", "COUNT", "64" },
        join->trackBatch(
            [self, generation, snaps, keys, now, mono](const RedisError &error, const QList<RedisValue> &pages) {
                if (error.isError() || !current(self, generation) || pages.size() != keys.size())
                    return;
                for (qsizetype i = 0; i < keys.size(); ++i) {
                    const RedisValue &page = pages.at(i);
                    // Gone since the walk saw it, or (a server before Redis 6, no SCAN ... TYPE) another type.
                    if (!page.isArray() || page.size() != 2 || page.at(1).size() == 0)
                        continue;
                    KeySnapshot s;
                    s.name = keys.at(i);
                    s.nowMs = now;
                    s.monoMs = mono;
                    s.pttlMs = kPttlUnread;
                    s.type = typeName("hash");
                    s.partial = page.at(0).bytes() != "0";
                    const RedisValue &fields = page.at(1);
                    s.fields.reserve(fields.size() / 2);
                    for (int k = 0; k + 1 < fields.size(); k += 2)
                        s.fields.append({ fields.at(k).bytes(), fields.at(k + 1).bytes() });
                    s.library = self->m_options.stringPatterns.declaredLibrary(s.name);
                    // Redisson's shape, or another library's hash (a layout that classifies it from its first page).
                    if (lockShaped(s) || (!s.partial && mayBeLockWhateverItsTtl(s)))
                        snaps->append(std::move(s));
                }
            }));
    join->seal(this);
}

void LockScanner::snapshotKeyless(const QList<QByteArray> &keys)
{
    QList<KeySnapshot> candidates;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 mono = monotonicMs();
    for (const QByteArray &key : keys) {
        // The first reading of the name is the one it is listed under (a fair queue's X, not "{X}").
        const QByteArray name = LockNameMap::fromAuxKey(key).value(0);
        // The monitor's pattern bounds the locks it shows, aux keys included; a queue and its deadlines name it once.
        if (name.isEmpty() || (m_options.pattern != "*" && !globMatch(m_options.pattern, name))
            || m_keylessNamesSeen.contains(name))
            continue;
        m_keylessNamesSeen.insert(name);
        KeySnapshot s;
        s.name = name;
        s.type = typeName("none");
        s.nowMs = now;
        s.monoMs = mono;
        candidates << s;
    }
    readAux(std::move(candidates));
}

void LockScanner::readRest(QList<KeySnapshot> candidates)
{
    // A lock-shaped first page of a hash with more pages: a read-write lock with many readers. Read it whole.
    QList<int> partial;
    for (int i = 0; i < candidates.size(); ++i)
        if (candidates.at(i).partial)
            partial << i;
    if (partial.isEmpty()) {
        readAux(std::move(candidates));
        return;
    }
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    QPointer<LockScanner> self(this);
    const auto join = batchJoin([self, snaps] { self->readAux(std::move(*snaps)); });
    m_connection->cork();
    for (int i : partial) {
        m_connection->command({ "HGETALL", snaps->at(i).name }, join->track([snaps, i](const RedisResult &r) {
            KeySnapshot &s = (*snaps)[i];
            s.fields.clear();
            for (int k = 0; k + 1 < r.value.size(); k += 2)
                s.fields.append({ r.value.at(k).bytes(), r.value.at(k + 1).bytes() });
            s.partial = false;
        }));
    }
    join->seal(this);
    m_connection->uncork();
}

void LockScanner::emitLocks(const QList<KeySnapshot> &snapshots, const QList<int> &skip)
{
    QList<LockInfo> locks;
    locks.reserve(snapshots.size());
    int nextSkip = 0;
    for (int i = 0; i < snapshots.size(); ++i) {
        if (nextSkip < skip.size() && skip.at(nextSkip) == i) {
            ++nextSkip;
            continue;
        }
        const KeySnapshot &s = snapshots.at(i);
        // Superseded; its PTTL unanswered; or deleted since its fields were read.
        if (s.superseded || s.pttlMs == kPttlUnread || (s.type == "hash" && s.pttlMs == -2))
            continue;
        LockInfo info = classify(s);
        if (info.isLock())
            locks << std::move(info);
    }
    if (!locks.isEmpty())
        emit locksFound(locks);
}

void LockScanner::readAux(QList<KeySnapshot> candidates)
{
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    // Lock hashes whose aux reads wait for the end of the walk (deferAuxReads), in ascending order.
    auto deferred = std::make_shared<QList<int>>();
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    const auto join = batchJoin([self, generation, snaps, deferred] {
        self->emitLocks(*snaps, *deferred);
        if (!current(self, generation))
            return;
        if (!deferred->isEmpty()) {
            QList<KeySnapshot> waiting;
            waiting.reserve(deferred->size());
            for (int i : std::as_const(*deferred))
                waiting << std::move((*snaps)[i]);
            self->deferAux(std::move(waiting));
        }
        if (current(self, generation))
            self->batchDone();
    });
    struct ChannelGroup
    {
        QList<QByteArray> channels;
        QList<int> snapshots;
    };
    QHash<RedisCommander *, ChannelGroup> channelGroups;
    AuxReads reads;
    QList<QByteArray> pttlKeys;
    QList<int> pttlSnapshots;
    m_connection->cork();
    for (int i = 0; i < snaps->size(); ++i) {
        if (snaps->at(i).pttlMs == kPttlUnread) {
            pttlKeys << snaps->at(i).name;
            pttlSnapshots << i;
        }
        if (snaps->at(i).type == "string") {
            // A string lock has no aux keys and no wake-up channel; a declared Redisson counter has both.
            AuxReader reader(&reads, *snaps, i);
            for (const LockLayout *layout : LockLayouts::all())
                layout->recogniser().readStringAux(reader);
            continue;
        }
        // A sorted-set lock, or a hash another library's layout took by its first page (not Redisson's shape): read
        // whole already, and without Redisson's aux keys or wake-up channel.
        if (snaps->at(i).type == "zset" || (snaps->at(i).type == "hash" && !lockShaped(snaps->at(i))))
            continue;
        if (snaps->at(i).type == "none") {
            AuxReader reader(&reads, *snaps, i);
            for (const LockLayout *layout : LockLayouts::all())
                layout->recogniser().readKeyless(reader);
            continue;
        }
        // Each layout reads what its fingerprint needs (kinds/<layout>/), in one pipeline with the rest; or, once the
        // walk has seen every key, only the keys it returned (readSeenAux).
        if (m_deferring) {
            deferred->append(i);
        } else {
            AuxReader reader(&reads, *snaps, i);
            for (const LockLayout *layout : LockLayouts::all())
                layout->recogniser().readAux(reader);
        }
        const QByteArray channel = LockLayouts::hashReleaseChannel(snaps->at(i));
        // Subscriptions live on the node serving the channel's slot (where Redisson subscribes): one count
        // command per node for the whole batch.
        ChannelGroup &group = channelGroups[m_connection->connectionForKey(channel)];
        group.channels << channel;
        group.snapshots << i;
    }
    if (!pttlKeys.isEmpty()) {
        m_connection->commandEach({ "PTTL" }, pttlKeys, {},
            join->trackBatch(
                [snaps, indexes = std::move(pttlSnapshots)](const RedisError &, const QList<RedisValue> &replies) {
                    for (qsizetype k = 0; k < replies.size() && k < indexes.size(); ++k)
                        if (replies.at(k).isInteger())
                            (*snaps)[indexes.at(k)].pttlMs = replies.at(k).toInteger();
                }));
    }
    if (!reads.commands.isEmpty()) {
        m_connection->commandBatch(reads.commands,
            join->trackBatch(
                [snaps, stores = std::move(reads.stores)](const RedisError &, const QList<RedisValue> &replies) {
                    if (replies.size() != stores.size())
                        return;
                    for (qsizetype k = 0; k < replies.size(); ++k)
                        stores.at(k).second((*snaps)[stores.at(k).first], RedisResult::fromValue(replies.at(k)));
                }));
    }
    for (const ChannelGroup &group : std::as_const(channelGroups)) {
        // Read when the count is sent: a subscription confirmed by then is in the server's count.
        QList<int> own(group.channels.size(), 0);
        for (int k = 0; m_own && k < group.channels.size(); ++k)
            own[k] = m_own->isConfirmed(RedisSubscriptions::Kind::Shard, group.channels.at(k)) ? 1 : 0;
        const auto counts = [snaps, indexes = group.snapshots, own](bool shard) {
            return [snaps, indexes, own, shard](const RedisResult &r) {
                // Denied (an ACL without PUBSUB): waiters stay unknown, the rest of the picture is still right.
                if (!r.ok() || r.value.size() != 2 * indexes.size())
                    return;
                for (int k = 0; k < indexes.size(); ++k) {
                    KeySnapshot &s = (*snaps)[indexes.at(k)];
                    const int n = int(r.value.at(2 * k + 1).toInteger());
                    (shard ? s.shardSubscribers : s.channelSubscribers) = shard ? qMax(0, n - own.at(k)) : n;
                }
            };
        };
        m_connection->command(QList<QByteArray> { "PUBSUB", "NUMSUB" } + group.channels, join->track(counts(false)));
        if (m_options.shardWaiters)
            m_connection->command(
                QList<QByteArray> { "PUBSUB", "SHARDNUMSUB" } + group.channels, join->track(counts(true)));
    }
    join->seal(this);
    m_connection->uncork();
}

void LockScanner::deferAux(QList<KeySnapshot> candidates)
{
    // Kept as the batches they came in: no list of them all that grows (and is copied) as the walk goes, and at the
    // end each batch is read on its own, so the aux commands of all of them are never built at once.
    m_parked.push_back(std::move(candidates));
    if (m_scanDone)
        readParked();
}

void LockScanner::walkEnded()
{
    m_scanDone = true;
    if (m_deferring)
        readParked();
}

void LockScanner::readParked()
{
    for (QList<KeySnapshot> &batch : std::exchange(m_parked, {}))
        readSeenAux(std::move(batch));
}

void LockScanner::readSeenAux(QList<KeySnapshot> candidates)
{
    // The walk has returned every key there was: an aux key it never returned does not exist (or was made after it
    // passed, as it could have been after a read). Only the reads of keys it may have returned are sent; the others
    // get the answer a missing key gives, here. Most lock hashes have no aux keys at all.
    ++m_batchesInFlight;
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    const auto join = batchJoin([self, generation, snaps] {
        self->emitLocks(*snaps, {});
        if (current(self, generation))
            self->batchDone();
    });
    AuxReads reads;
    for (int i = 0; i < snaps->size(); ++i) {
        AuxReader reader(&reads, *snaps, i);
        for (const LockLayout *layout : LockLayouts::all())
            layout->recogniser().readAux(reader);
    }
    AuxReads sent;
    QList<QByteArray> keys;
    for (qsizetype k = 0; k < reads.commands.size(); ++k) {
        const std::optional<RedisValue> absent = replyWithoutKeys(reads.commands.at(k), &keys);
        const bool seen = std::any_of(
            keys.cbegin(), keys.cend(), [this](const QByteArray &key) { return m_walkedKeys.mayContain(key); });
        if (absent && !seen) {
            const auto &[index, store] = reads.stores.at(k);
            store((*snaps)[index], RedisResult::fromValue(*absent));
        } else {
            sent.commands.append(reads.commands.at(k));
            sent.stores.append(reads.stores.at(k));
        }
    }
    if (!sent.commands.isEmpty()) {
        m_connection->commandBatch(sent.commands,
            join->trackBatch(
                [snaps, stores = std::move(sent.stores)](const RedisError &, const QList<RedisValue> &replies) {
                    if (replies.size() != stores.size())
                        return;
                    for (qsizetype k = 0; k < replies.size(); ++k)
                        stores.at(k).second((*snaps)[stores.at(k).first], RedisResult::fromValue(replies.at(k)));
                }));
    }
    join->seal(this);
}

} // namespace LockScope
