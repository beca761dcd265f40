#include "kinds/hashrecognition.h"

#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"

#include <algorithm>

namespace LockScope::HashRecognition {

namespace {
struct Rule
{
    const LockLayout *layout;
    HashMark mark;
    int firstRead; // index into reads() of the mark's first read
};

struct Table
{
    QList<Rule> rules; // rank order
    QList<Read> reads;
};

const Table &table()
{
    // Built once from the registry (stateless layouts; a magic static, safe from any thread).
    static const Table t = [] {
        Table built;
        for (const LockLayout *layout : LockLayouts::all())
            if (const std::optional<HashMark> mark = layout->recogniser().hashMark())
                built.rules << Rule { layout, *mark, 0 };
        std::stable_sort(built.rules.begin(), built.rules.end(),
            [](const Rule &a, const Rule &b) { return a.mark.rank < b.mark.rank; });
        for (Rule &rule : built.rules) {
            rule.firstRead = int(built.reads.size());
            if (!rule.mark.field.isEmpty())
                built.reads << Read { rule.mark.field, nullptr };
            for (auto key : rule.mark.auxKeys)
                built.reads << Read { {}, key };
        }
        return built;
    }();
    return t;
}

int readsOf(const HashMark &mark)
{
    return int(mark.auxKeys.size()) + (mark.field.isEmpty() ? 0 : 1);
}
} // namespace

const QList<Read> &reads()
{
    return table().reads;
}

QList<QByteArray> auxKeys(const QByteArray &name)
{
    QList<QByteArray> keys;
    for (const Read &read : reads())
        if (read.auxKey)
            keys << read.auxKey(name);
    return keys;
}

const HashMark *markOf(const QByteArray &id)
{
    for (const Rule &rule : table().rules)
        if (id == rule.layout->id())
            return &rule.mark;
    return nullptr;
}

const LockLayout *decide(const QByteArray &type, const QList<bool> &marks, bool *notAHash)
{
    if (notAHash)
        *notAHash = type != "hash" && type != "none";
    if (type != "hash" && type != "none")
        return nullptr;
    for (const Rule &rule : table().rules) {
        const int n = readsOf(rule.mark);
        if (n == 0) {
            // The plain lock hash: any hash none of the marks before it claimed.
            if (type == "hash")
                return rule.layout;
            continue;
        }
        // A field can only be there on a hash; aux keys outlive their lock (a fencing token, a queue of waiters).
        for (int i = rule.firstRead; i < rule.firstRead + n; ++i)
            if (marks.value(i) && (reads().at(i).auxKey || type == "hash"))
                return rule.layout;
    }
    return nullptr;
}

const LockLayout *classify(const KeySnapshot &key, const HashReading &hash)
{
    for (const Rule &rule : table().rules)
        if (!rule.mark.seen || rule.mark.seen(key, hash))
            return rule.layout;
    return nullptr;
}

QByteArray lua()
{
    // Cheap on the hot path: TYPE, one HEXISTS per field mark and one EXISTS per aux key, each only until a mark
    // answers. The aux keys are read, never written, so the scripts take them as arguments (all of them, as the tail of
    // ARGV: lockKindAt(KEYS[1], unpack(ARGV, first))) and keep Redisson's own KEYS: a reentrant acquire stays
    // single-key and, like Java's, works while its cluster slot migrates (an importing node serves a single-key read to
    // an ASKING client, where a multi-key one answers TRYAGAIN). They share N's slot; only during a migration may one
    // be on the other node, where Redis refuses the read: then the script answers TRYAGAIN, which the router retries,
    // as Redis's own.
    QByteArray lua = R"LUA(
local auxError
local function auxExists(key)
    local n = redis.pcall('exists', key)
    if type(n) ~= 'number' then
        auxError = n.err or tostring(n)
        return nil
    end
    return n == 1
end
local function lockKindAt(n, ...)
    local aux = {...}
    local t = redis.call('type', n)['ok']
    if t ~= 'none' and t ~= 'hash' then
        return t
    end
)LUA";
    QList<QByteArray> ids;
    int aux = 0;
    for (const Rule &rule : table().rules) {
        const QByteArray id = rule.layout->id();
        ids << "found == '" + id + "'";
        if (readsOf(rule.mark) == 0) {
            lua += "    if t == 'hash' then\n        return '" + id + "'\n    end\n";
            continue;
        }
        if (!rule.mark.field.isEmpty())
            lua += "    if t == 'hash' and redis.call('hexists', n, '" + rule.mark.field
                + "') == 1 then\n        return '" + id + "'\n    end\n";
        for (int k = 0; k < rule.mark.auxKeys.size(); ++k) {
            const QByteArray i = QByteArray::number(++aux);
            lua += "    if aux[" + i + "] then\n        local e = auxExists(aux[" + i
                + "])\n        if e == nil then\n            return 'unreadable'\n        end\n        if e then\n"
                  "            return '"
                + id + "'\n        end\n    end\n";
        }
    }
    lua += R"LUA(    return 'none'
end
local function refuseKind(found)
    if found == 'unreadable' then
        if string.find(auxError, 'non local key', 1, true) then
            return redis.error_reply('TRYAGAIN the lock keys are being migrated between cluster nodes')
        end
        return redis.error_reply(auxError)
    end
    if )LUA"
        + ids.join(" or ") + R"LUA( then
        return redis.error_reply('LOCKKIND ' .. found)
    end
    return redis.error_reply('WRONGTYPE the lock name holds a ' .. found .. ', not a lock hash')
end
)LUA";
    return lua;
}

} // namespace LockScope::HashRecognition
