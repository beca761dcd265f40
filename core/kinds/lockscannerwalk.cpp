// The scanner's untyped walk plan (docs/design.md#monitor): SCAN without TYPE costs the server one walk of the
// keyspace however many layouts it serves, where each SCAN ... TYPE costs a whole walk of its own; the TYPE of each
// key, pipelined, is cheap beside it. Each key then goes to the first cursor that takes its type and name, and is read
// as that cursor says.
#include "kinds/lockscanner.h"

#include "redis/rediscommander.h"
#include "redis/replyjoin.h"

#include <algorithm>
#include <memory>

namespace LockScope {

QList<LockScanner::Walk> LockScanner::walksFor(const QList<ScanCursor> &cursors, const QByteArray &scopePattern)
{
    // With "*" every key comes back anyway: one walk serves every cursor, each taking the names its own pattern
    // matches. A narrower pattern is the walk's MATCH, and a cursor with another pattern (a single string lock glob,
    // the fair queues' names) gets a walk of its own.
    QList<Walk> walks;
    for (const ScanCursor &cursor : cursors) {
        const QByteArray pattern = scopePattern == "*" ? QByteArray("*") : cursor.pattern;
        auto it = std::find_if(walks.begin(), walks.end(), [&pattern](const Walk &w) { return w.pattern == pattern; });
        if (it == walks.end())
            walks.append({ pattern, { cursor } });
        else
            it->cursors << cursor;
    }
    return walks;
}

void LockScanner::walkFrom(RedisCommander *node, int walk, const QByteArray &cursor)
{
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    QPointer<RedisCommander> target(node);
    node->command({ "SCAN", cursor, "MATCH", m_walks.at(walk).pattern, "COUNT", QByteArray::number(m_options.count) },
        [self, generation, walk, target](const RedisResult &r) {
            if (!current(self, generation))
                return;
            QList<QByteArray> keys;
            if (!r.ok() && self->nodeFailed(target, r.error))
                return;
            if (!self->pageKeys(r, &keys))
                return;
            if (self->m_deferring)
                for (const QByteArray &key : std::as_const(keys))
                    self->m_walkedKeys.insert(key);
            const QByteArray next = r.value.at(0).bytes();
            ++self->m_batchesInFlight;
            // The next SCAN leaves with this batch's TYPEs: the server walks on while the types come back.
            self->m_connection->cork();
            self->sortByType(keys, walk);
            if (next == "0" || !target) {
                if (--self->m_scansLeft <= 0)
                    self->walkEnded();
            } else {
                self->walkFrom(target, walk, next);
            }
            self->m_connection->uncork();
        });
}

void LockScanner::sortByType(const QList<QByteArray> &keys, int walk)
{
    // One batch of TYPEs per page: a walk asks for the type of every key of the keyspace. Even with no keys the batch
    // ends later, never inside this call: the caller has yet to mark the walk done.
    auto types = std::make_shared<QList<QByteArray>>();
    QPointer<LockScanner> self(this);
    const auto join = batchJoin([self, keys, types, walk] {
        self->route(keys, *types, walk);
        self->batchDone();
    });
    m_connection->commandEach({ "TYPE" }, keys, {},
        join->trackBatch([types, count = keys.size()](const RedisError &, const QList<RedisValue> &replies) {
            types->reserve(count);
            for (const RedisValue &type : replies)
                types->append(type.bytes());
            types->resize(count); // a refused batch: no type, nothing routed
        }));
    join->seal(this);
}

void LockScanner::route(const QList<QByteArray> &keys, const QList<QByteArray> &types, int walk)
{
    const QList<ScanCursor> &cursors = m_walks.at(walk).cursors;
    QList<QList<QByteArray>> groups(cursors.size());
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const QByteArray &key = keys.at(i);
        const QByteArray &type = types.at(i);
        for (qsizetype c = 0; c < cursors.size(); ++c) {
            const ScanCursor &cursor = cursors.at(c);
            if ((!cursor.type.isEmpty() && cursor.type != type) || type == "none" || !globMatch(cursor.pattern, key))
                continue;
            if (!cursor.filter.isEmpty()
                && std::none_of(cursor.filter.cbegin(), cursor.filter.cend(),
                    [&key](const QByteArray &glob) { return globMatch(glob, key); }))
                continue;
            groups[c] << key;
            break; // read by one cursor only
        }
    }
    m_connection->cork();
    for (qsizetype c = 0; c < cursors.size(); ++c) {
        QList<QByteArray> group = std::move(groups[c]);
        if (cursors.at(c).read == ScanCursor::Read::String)
            group = newStringKeys(group);
        if (group.isEmpty())
            continue;
        ++m_batchesInFlight;
        snapshot(group, cursors.at(c).read);
    }
    m_connection->uncork();
}

} // namespace LockScope
