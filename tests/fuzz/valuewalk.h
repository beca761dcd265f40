#pragma once

#include "fuzzinput.h"
#include "kinds/locknamemap.h"
#include "monitor/lockeventfeed.h"
#include "redis/bytesformat.h"
#include "redis/redisresult.h"
#include "redis/redisvalue.h"
#include "redis/slotmap.h"

namespace LockScope::Fuzz {

// Every accessor of a reply, and every parser in the core that takes server replies as they come.
inline void walkValue(const RedisValue &value, int depth = 0)
{
    FUZZ_CHECK(depth <= 16); // hiredis refuses nesting deeper than 7 levels
    bool ok = false;
    const qint64 integer = value.toInteger(&ok);
    if (value.isInteger())
        FUZZ_CHECK(ok && value.bytes() == QByteArray::number(integer));
    FUZZ_CHECK(value.isArray() || value.size() == 0);
    FUZZ_CHECK(!value.isNil() || value.bytes().isEmpty());
    const RedisResult result = RedisResult::fromValue(value);
    // A server error is both a value and a typed error: callers that check only one must not take it for data.
    FUZZ_CHECK(value.isError() == result.error.isError());
    if (value.isError())
        FUZZ_CHECK(result.error.kind() == RedisError::Kind::Reply || result.error.kind() == RedisError::Kind::Auth
            || result.error.kind() == RedisError::Kind::Permission);
    const QByteArray bytes = value.bytes();
    escapeBytes(bytes, 64);
    LockEventFeed::usableFlags(bytes);
    LockNameMap::fromChannel(bytes);
    keySlot(bytes);
    FUZZ_CHECK(value == RedisValue(value));
    for (int i = 0; i < value.size(); ++i)
        walkValue(value.at(i), depth + 1);
    if (depth == 0) {
        value.toDebugString();
        // CLUSTER SHARDS and CLUSTER SLOTS come from the server: a malformed map must not take the client down.
        for (const SlotMap &map : { SlotMap::fromShards(value), SlotMap::fromSlots(value) }) {
            // The router fills a 16384-entry table from these ranges: one past it would write out of bounds.
            for (const SlotMap::Range &range : map.ranges())
                FUZZ_CHECK(range.first <= range.last && range.last < 16384);
            map.masters();
            map.coveredSlots();
            map.masterFor(keySlot(bytes));
        }
    }
}

} // namespace LockScope::Fuzz
