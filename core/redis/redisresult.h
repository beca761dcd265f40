#pragma once

#include "base/rediserror.h"
#include "redis/redisvalue.h"

namespace LockScope {

// The outcome of one command. A server error reply arrives as both value (type Error) and error (kind Reply,
// Auth or Permission), so callers that only check error never mistake it for data.
struct RedisResult
{
    RedisValue value;
    RedisError error;

    bool ok() const { return !error.isError(); }
    static RedisResult fromValue(RedisValue v)
    {
        RedisResult r;
        if (v.isError())
            r.error = RedisError::fromReply(v.bytes(), v.errorCode());
        r.value = std::move(v);
        return r;
    }
    static RedisResult fromError(RedisError e)
    {
        RedisResult r;
        r.error = std::move(e);
        return r;
    }
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::RedisResult)
