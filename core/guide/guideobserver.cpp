#include "guide/guideobserver.h"

#include "redis/monitorline.h"
#include "redis/redisconnection.h"
#include "redis/redissubscriber.h"

#include <memory>

namespace LockScope::Guide {

namespace {
const QByteArray syncPrefix = "lockscope-guide-sync-";
constexpr size_t maxSeen = 2000;

QList<QByteArray> lower(QList<QByteArray> calls)
{
    for (QByteArray &c : calls)
        c = c.toLower();
    return calls;
}
} // namespace

GuideObserver::GuideObserver(ConnectionOptions connection, bool useMonitor, QObject *parent)
    : QObject(parent)
    , m_options(std::move(connection))
    , m_useMonitor(useMonitor)
{
    m_reads = new RedisConnection(m_options, this);
    m_keyspace = new RedisSubscriber(m_options, this);
    m_keyspace->setPingInterval(0);
    connect(m_keyspace, &RedisSubscriber::patternMessage, this,
        [this](const QByteArray &, const QByteArray &channel, const QByteArray &event) {
            const int colon = channel.indexOf("__:");
            if (colon > 0)
                emit keyEvent(channel.mid(colon + 3), event);
        });
}

GuideObserver::~GuideObserver() = default;

void GuideObserver::start(std::function<void(const QString &error)> done)
{
    m_reads->command({ "CLIENT", "SETNAME", "lockscope-guide-observer" });
    if (m_useMonitor) {
        // Our own server: keyspace events on, so that an expiry is seen when it happens.
        m_reads->command({ "CONFIG", "SET", "notify-keyspace-events", "KEA" });
        m_monitor = new RedisConnection(m_options, this);
        m_monitor->setPushHandler([this](const RedisValue &v) {
            if (v.isStatus() && v.bytes() != "OK")
                onMonitorLine(v.bytes());
        });
        m_monitor->sendPush({ "MONITOR" });
    }
    const QByteArray pattern = "__keyspace@" + QByteArray::number(m_options.db) + "__:guided:*";
    m_keyspace->subscribe(RedisSubscriptions::Kind::Pattern, pattern, [this, done](const RedisError &error) {
        if (error.isError()) {
            done(error.message());
            return;
        }
        // A first sync proves MONITOR is running: the demo's first step must not run before it is.
        sync([done] { done({}); });
    });
}

void GuideObserver::sync(std::function<void()> done)
{
    if (!m_monitor) {
        done();
        return;
    }
    const quint64 id = ++m_nextSync;
    m_syncs.push_back({ id, std::move(done) });
    m_reads->command({ "ECHO", syncPrefix + QByteArray::number(id) });
}

bool GuideObserver::parseMonitorLine(const QByteArray &line, QByteArray *client, QList<QByteArray> *argv)
{
    MonitorLine parsed;
    if (!LockScope::parseMonitorLine(line, &parsed))
        return false;
    *client = std::move(parsed.client);
    *argv = std::move(parsed.argv);
    return true;
}

void GuideObserver::onMonitorLine(const QByteArray &line)
{
    QByteArray client;
    QList<QByteArray> argv;
    if (!parseMonitorLine(line, &client, &argv))
        return;
    const QByteArray command = argv.first().toUpper();
    if (client == "lua") {
        // Redis 7 shows a script's calls right after its EVAL; older servers showed them before it.
        if (m_lastWasEval && !m_seen.empty())
            m_seen.back().calls << argv.first().toLower();
        else if (!m_inForeignScript)
            m_orphanCalls << argv.first().toLower();
        return;
    }
    m_lastWasEval = false;
    m_inForeignScript = false;
    if (command == "ECHO" && argv.size() == 2 && argv.at(1).startsWith(syncPrefix)) {
        const quint64 id = argv.at(1).mid(syncPrefix.size()).toULongLong();
        while (!m_syncs.empty() && m_syncs.front().id <= id) {
            auto done = std::move(m_syncs.front().done);
            m_syncs.pop_front();
            done();
        }
        return;
    }
    const bool script = command == "EVAL" || command == "EVALSHA" || command == "EVAL_RO" || command == "EVALSHA_RO"
        || command == "FCALL" || command == "FCALL_RO";
    if (!script) {
        // A script's calls come right before or right after it (scripts are atomic): any other line ends them.
        m_orphanCalls.clear();
        return;
    }
    if (command != "EVAL" || argv.size() < 3) {
        // Another client's script on a shared server (the console's and the demo clients' EVALSHA): its calls,
        // before or after it, are not a guided script's.
        m_orphanCalls.clear();
        m_inForeignScript = true;
        return;
    }
    Seen seen;
    seen.args = argv.mid(2);
    seen.calls = std::exchange(m_orphanCalls, {});
    m_lastWasEval = seen.calls.isEmpty();
    m_seen.push_back(std::move(seen));
    while (m_seen.size() > maxSeen)
        m_seen.pop_front();
}

void GuideObserver::annotate(GuideRecord record, std::function<void(const GuideRecord &)> done)
{
    if (record.op != "EVAL") {
        done(record);
        return;
    }
    if (!m_monitor) {
        record.calls = inferCalls(record);
        record.callsInferred = true;
        done(record);
        return;
    }
    sync([this, record, done]() mutable {
        QList<QByteArray> args { QByteArray::number(record.keys.size()) };
        args << record.keys << record.argv;
        for (Seen &seen : m_seen) {
            if (!seen.claimed && seen.args == args) {
                seen.claimed = true;
                record.calls = lower(seen.calls);
                break;
            }
        }
        done(record);
    });
}

QList<QByteArray> GuideObserver::inferCalls(const GuideRecord &record)
{
    const RedisValue &r = record.reply;
    const bool nil = r.isNil();
    const qint64 n = r.isInteger() ? r.toInteger() : -99;
    if (record.script == "acquire")
        return nil ? QList<QByteArray> { "exists", "hincrby", "pexpire" }
                   : QList<QByteArray> { "exists", "hexists", "pttl" };
    if (record.script == "unlock-4") {
        if (nil)
            return { "get", "hexists" };
        return n == 1 ? QList<QByteArray> { "get", "hexists", "hincrby", "del", "publish", "set" }
                      : QList<QByteArray> { "get", "hexists", "hincrby", "pexpire", "set" };
    }
    if (record.script == "unlock-3" || record.script == "unlock-3.22" || record.script == "unlock-2") {
        QList<QByteArray> calls;
        if (record.script == "unlock-2")
            calls << "exists";
        if (nil)
            return calls << "hexists";
        return calls << "hexists"
                     << "hincrby"
                     << (n == 1 ? QList<QByteArray> { "del", "publish" } : QList<QByteArray> { "pexpire" });
    }
    if (record.script == "renew-batch" || record.script == "renew-1") {
        QList<QByteArray> calls;
        const QList<RedisValue> answers = r.isArray() ? r.elements() : QList<RedisValue> { r };
        for (const RedisValue &answer : answers) {
            calls << "hexists";
            if (answer.toInteger() == 1)
                calls << "pexpire";
        }
        return calls;
    }
    if (record.script == "force-unlock")
        return n == 1 ? QList<QByteArray> { "del", "publish" } : QList<QByteArray> { "del" };
    return {};
}

void GuideObserver::readState(const QList<QByteArray> &keys, const QByteArray &channel,
    std::function<void(const QList<KeyState> &, int listeners)> done)
{
    struct Pending
    {
        QList<KeyState> states;
        int listeners = -1;
        int left = 0;
        std::function<void(const QList<KeyState> &, int)> done;
    };
    auto pending = std::make_shared<Pending>();
    pending->done = std::move(done);
    pending->left = int(keys.size()) * 4 + (channel.isEmpty() ? 0 : 1);
    const auto finishOne = [pending] {
        if (--pending->left == 0)
            pending->done(pending->states, pending->listeners);
    };
    if (pending->left == 0) {
        pending->done({}, -1);
        return;
    }
    for (const QByteArray &key : keys) {
        const int i = int(pending->states.size());
        KeyState state;
        state.name = key;
        pending->states << state;
        m_reads->cork();
        m_reads->command({ "TYPE", key }, [pending, i, finishOne](const RedisResult &r) {
            if (r.ok())
                pending->states[i].type = r.value.bytes();
            finishOne();
        });
        m_reads->command({ "PTTL", key }, [pending, i, finishOne](const RedisResult &r) {
            if (r.ok())
                pending->states[i].pttl = r.value.toInteger();
            finishOne();
        });
        // Both reads go out; the one of the wrong type answers WRONGTYPE and is ignored.
        m_reads->command({ "HGETALL", key }, [pending, i, finishOne](const RedisResult &r) {
            if (r.ok() && r.value.isArray()) {
                for (int j = 0; j + 1 < r.value.size(); j += 2)
                    pending->states[i].fields.append({ r.value.at(j).bytes(), r.value.at(j + 1).bytes() });
            }
            finishOne();
        });
        m_reads->command({ "GET", key }, [pending, i, finishOne](const RedisResult &r) {
            if (r.ok() && r.value.isString())
                pending->states[i].value = r.value.bytes();
            finishOne();
        });
        m_reads->uncork();
    }
    if (!channel.isEmpty()) {
        m_reads->command({ "PUBSUB", "NUMSUB", channel }, [pending, finishOne](const RedisResult &r) {
            if (r.ok() && r.value.size() == 2)
                pending->listeners = int(r.value.at(1).toInteger());
            finishOne();
        });
    }
}

void GuideObserver::countGuidedKeys(std::function<void(int, const QString &)> done)
{
    auto count = std::make_shared<int>(0);
    scan(
        "0", "guided:*", [count](const QList<RedisValue> &keys) { *count += int(keys.size()); },
        [count, done](const QString &error) { done(*count, error); });
}

void GuideObserver::clear(std::function<void(const QString &error)> done)
{
    const auto deleteAll = [this](const QList<RedisValue> &keys) {
        QList<QByteArray> del { "DEL" };
        for (const RedisValue &key : keys)
            del << key.bytes();
        if (del.size() > 1)
            m_reads->command(del);
    };
    scan("0", "guided:*", deleteAll, [this, deleteAll, done](const QString &error) {
        if (!error.isEmpty()) {
            done(error);
            return;
        }
        scan("0", "redisson_unlock_latch:{guided:*", deleteAll, [this, done](const QString &error) {
            if (!error.isEmpty()) {
                done(error);
                return;
            }
            // Replies come in order: once this one is in, every DEL before it has run.
            m_reads->command(
                { "PING" }, [done](const RedisResult &r) { done(r.ok() ? QString() : r.error.message()); });
        });
    });
}

void GuideObserver::scan(const QByteArray &cursor, const QByteArray &pattern,
    std::function<void(const QList<RedisValue> &keys)> batch, std::function<void(const QString &error)> done)
{
    m_reads->command(
        { "SCAN", cursor, "MATCH", pattern, "COUNT", "1000" }, [this, pattern, batch, done](const RedisResult &r) {
            if (!r.ok() || !r.value.isArray() || r.value.size() != 2 || !r.value.at(1).isArray()) {
                done(r.error.isError() ? r.error.message() : tr("SCAN gave an unexpected reply"));
                return;
            }
            batch(r.value.at(1).elements());
            const QByteArray next = r.value.at(0).bytes();
            if (next == "0")
                done({});
            else
                scan(next, pattern, batch, done);
        });
}

} // namespace LockScope::Guide
