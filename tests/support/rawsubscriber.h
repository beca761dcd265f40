#pragma once

#include "rawredis.h"

#include <QByteArrayList>

namespace LockScope::Test {

// The test's own ears on one pub/sub channel, through an independent raw connection.
class RawSubscriber
{
public:
    RawSubscriber(quint16 port, const QByteArray &channel)
        : m_raw(port)
    {
        m_raw.append({ "SUBSCRIBE", channel });
        m_raw.readReply(5000);
    }

    // Everything published since the last call, in order ("message:0,message:1"), or "none": a PING marks the end.
    QByteArray next()
    {
        m_raw.append({ "PING" });
        QByteArrayList seen;
        for (;;) {
            bool timedOut = false;
            const RedisValue v = m_raw.readReply(5000, &timedOut);
            if (timedOut)
                return "timeout";
            if (v.isArray() && v.at(0).bytes() == "message")
                seen << "message:" + v.at(2).bytes();
            else if (v.isArray() && v.at(0).bytes() == "pong")
                return seen.isEmpty() ? QByteArray("none") : seen.join(',');
        }
    }

private:
    RawRedis m_raw;
};

} // namespace LockScope::Test
