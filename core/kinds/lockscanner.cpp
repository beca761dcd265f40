#include "kinds/lockscanner.h"

#include "kinds/lockscannerparts.h"
#include <QCoreApplication>

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

using namespace ScannerParts;

namespace {
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
    m_partial.clear();
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
    const QList<QByteArray> vouching = LockNameMap::vouchingChannelPatterns();
    m_scansLeft = int(nodes.size() * ((m_typeFilter ? chains.size() : m_walks.size()) + vouching.size()));
    if (nodes.isEmpty()) {
        m_scanDone = true;
        ++m_batchesInFlight;
        readAux({});
        return;
    }
    // Every cursor of every node leaves in one write: the nodes work side by side.
    m_connection->cork();
    for (RedisCommander *node : nodes) {
        for (const QByteArray &pattern : vouching)
            findVouched(node, pattern);
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
        if (!r.ok() && self->nodeFailed(target, r.error))
            return;
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

bool LockScanner::nodeFailed(RedisCommander *node, const RedisError &error)
{
    const bool reach = error.kind() == RedisError::Kind::Io || error.kind() == RedisError::Kind::Timeout;
    if (!m_options.partialOnNodeFailure || !reach || !node)
        return false;
    const ConnectionOptions &o = node->options();
    const QString reason = QCoreApplication::translate("LockScope::LockScanner", "node %1:%2 could not be read: %3")
                               .arg(o.host)
                               .arg(o.port)
                               .arg(error.message());
    if (!m_partial.contains(reason))
        m_partial << reason;
    if (--m_scansLeft <= 0)
        walkEnded();
    return true;
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
    // Named keys that are neither hashes nor inside a string lock pattern: a Redisson counter someone waits on is
    // still one (readVouched), read after this batch so that a lock hash costs no more reads than before.
    auto outside = std::make_shared<QList<KeySnapshot>>();
    const auto join = batchJoin([self, snaps, outside] {
        if (outside->isEmpty())
            self->readRest(std::move(*snaps));
        else
            self->readVouched(std::move(*snaps), std::move(*outside));
    });
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
            join->track([self, generation, snaps, key, now, mono, fields, value, members, memberCount, named, string,
                            outside](const RedisResult &r) {
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
                    // A hash under a name declared as Redisson's is a lock on the user's word (--layout-pattern).
                    s.declared = s.library == "redisson";
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
                    if (s.library == "custom")
                        s.ownerTemplate = self->m_options.stringPatterns.templateFor(key);
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
                } else if (named && !string && s.pttlMs != -2) {
                    outside->append(std::move(s)); // not a hash: maybe a counter its waiters vouch for
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
                    s.declared = s.library == "redisson";
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

} // namespace LockScope
