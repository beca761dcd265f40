#pragma once

#include "fuzzinput.h"
#include "redis/commandpolicy.h"
#include "redis/rediscommander.h"
#include "redis/respcodec.h"

#include <QCoreApplication>

#include <deque>
#include <functional>
#include <utility>

namespace LockScope::Fuzz {

// A server in a box for the code that reads replies without caring how they travel (the scanner, the kind probe):
// every command takes the next reply out of the fuzz bytes, answered later as a real connection would (never inside
// command()). Once the bytes run out, or stop being RESP, every command fails as on a dropped connection.
class ScriptedCommander : public RedisCommander
{
public:
    explicit ScriptedCommander(const QByteArray &replies)
    {
        m_options.host = QStringLiteral("127.0.0.1");
        m_options.port = 6379;
        m_options.readOnly = true;
        m_reader.feed(replies.constData(), replies.size());
    }

    const ConnectionOptions &options() const override { return m_options; }
    bool isReady() const override { return true; }
    int pendingCount() const override { return int(m_queue.size()); }
    void open() override { }
    void command(QList<QByteArray> argv, Callback callback = {}) override
    {
        // The scanner and the probe only read (they run on read-only connections and under ACL users allowed
        // nothing else), whatever the server answered before.
        FUZZ_CHECK(isReadOnlyCommand(argv));
        ++m_commands;
        // A pass must end once the server is gone: a few rounds of failures, not a loop that keeps asking.
        if (m_exhausted)
            FUZZ_CHECK(++m_afterEnd < 10000);
        RedisResult reply = nextReply();
        if (m_observer)
            m_observer(argv, reply);
        m_queue.push_back({ std::move(reply), std::move(callback) });
    }
    void eval(const RedisScript &, const QList<QByteArray> &, const QList<QByteArray> &, Callback) override
    {
        violated("a reader ran a script");
    }
    void commandDeferred(const QList<QByteArray> &argv) override { FUZZ_CHECK(isReadOnlyCommand(argv)); }
    void flushDeferred() override { }
    void cork() override { ++m_corks; }
    void uncork() override { FUZZ_CHECK(--m_corks >= 0); }
    qint64 nowMs() const override { return 1'700'000'000'000; }

    // Answers what was sent, and what the answers make the caller send, until nothing is waiting.
    void drain()
    {
        while (!m_queue.empty()) {
            Pending next = std::move(m_queue.front());
            m_queue.pop_front();
            if (next.callback)
                next.callback(next.result);
            QCoreApplication::sendPostedEvents(); // ReplyJoin::seal's queued continuations
        }
        QCoreApplication::sendPostedEvents();
    }
    int commands() const { return m_commands; }
    bool corked() const { return m_corks > 0; }
    // Sees each command with the answer it is about to get, for targets whose invariants depend on what one command
    // was answered (a WAIT that was not an integer must not count as acknowledgements).
    void onAnswer(std::function<void(const QList<QByteArray> &, const RedisResult &)> observer)
    {
        m_observer = std::move(observer);
    }

private:
    struct Pending
    {
        RedisResult result;
        Callback callback;
    };

    RedisResult nextReply()
    {
        if (!m_exhausted) {
            RedisValue value;
            if (m_reader.next(&value) == RespReader::Status::Reply) {
                return RedisResult::fromValue(std::move(value));
            }
            m_exhausted = true;
        }
        return RedisResult::fromError(RedisError(RedisError::Kind::Io, QStringLiteral("fuzz: connection lost")));
    }

    ConnectionOptions m_options;
    RespReader m_reader;
    std::deque<Pending> m_queue;
    bool m_exhausted = false;
    int m_afterEnd = 0;
    int m_commands = 0;
    int m_corks = 0;
    std::function<void(const QList<QByteArray> &, const RedisResult &)> m_observer;
};

} // namespace LockScope::Fuzz
