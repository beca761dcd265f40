#pragma once

#include "redis/rediscommander.h"

#include <memory>

namespace LockScope {

// Runs a continuation once every command of a batch has answered, whichever nodes they went to (a PING at the end
// of a pipeline says the same on one connection only). A reply error is data for its own callback; a lost
// connection or a deadline is the batch's error.
class ReplyJoin : public std::enable_shared_from_this<ReplyJoin>
{
public:
    using Done = std::function<void(const RedisError &)>;
    static std::shared_ptr<ReplyJoin> create(Done done)
    {
        return std::shared_ptr<ReplyJoin>(new ReplyJoin(std::move(done)));
    }

    RedisCommander::Callback track(RedisCommander::Callback callback = {})
    {
        ++m_pending;
        return [self = shared_from_this(), callback = std::move(callback)](const RedisResult &r) {
            if (callback)
                callback(r);
            const auto kind = r.error.kind();
            if ((kind == RedisError::Kind::Io || kind == RedisError::Kind::Timeout) && !self->m_error.isError())
                self->m_error = r.error;
            --self->m_pending;
            self->fireIfDone();
        };
    }
    // The same for a batch (RedisCommander::commandBatch): one reply list, tracked as one.
    RedisCommander::BatchCallback trackBatch(RedisCommander::BatchCallback callback)
    {
        ++m_pending;
        return [self = shared_from_this(), callback = std::move(callback)](
                   const RedisError &error, const QList<RedisValue> &replies) {
            if (callback)
                callback(error, replies);
            if ((error.kind() == RedisError::Kind::Io || error.kind() == RedisError::Kind::Timeout)
                && !self->m_error.isError())
                self->m_error = error;
            --self->m_pending;
            self->fireIfDone();
        };
    }
    // No more commands will be tracked. With none at all, the continuation still runs later, in context's thread,
    // never inside seal(): callers count on it as they did on a reply.
    void seal(QObject *context)
    {
        m_sealed = true;
        if (m_pending == 0)
            QMetaObject::invokeMethod(
                context, [self = shared_from_this()] { self->fireIfDone(); }, Qt::QueuedConnection);
    }

private:
    explicit ReplyJoin(Done done)
        : m_done(std::move(done))
    { }
    void fireIfDone()
    {
        if (m_sealed && m_pending == 0 && m_done)
            std::exchange(m_done, {})(m_error);
    }
    Done m_done;
    int m_pending = 0;
    bool m_sealed = false;
    RedisError m_error;
};

} // namespace LockScope
