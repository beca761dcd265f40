#include "monitor/lockeventfeed.h"

#include "redis/keyspaceflags.h"

#include "kinds/locknamemap.h"
#include "redis/rediscommander.h"
#include "redis/redissubscriber.h"

#include <QPointer>

#include <algorithm>
#include <memory>

namespace LockScope {

namespace {
const QByteArray kEventClasses = KeyspaceFlags::lockEventClasses();
} // namespace

LockEventFeed::LockEventFeed(ConnectionOptions options, RedisCommander *reader, bool useKeyspaceEvents, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_reader(reader)
    , m_useKeyspaceEvents(useKeyspaceEvents)
{
    m_options.readOnly = true;
    m_recheck.setInterval(10000);
    connect(&m_recheck, &QTimer::timeout, this, &LockEventFeed::recheckConfig);
}

void LockEventFeed::setConfigRecheckInterval(int ms)
{
    m_recheck.setInterval(qMax(0, ms));
    if (ms <= 0)
        m_recheck.stop();
    else if (m_mode != Mode::Starting && m_configReadable && m_useKeyspaceEvents)
        m_recheck.start();
}

QByteArray LockEventFeed::keyspacePrefixFor(const QByteArray &flags) const
{
    const char usable = usableFlags(flags);
    if (!usable)
        return {};
    return (usable == 'K' ? "__keyspace@" : "__keyevent@") + QByteArray::number(m_options.db) + "__:";
}

QString LockEventFeed::reasonFor(const QByteArray &flags) const
{
    if (usableFlags(flags))
        return {};
    return flags.isEmpty()
        ? tr("the server sends no keyspace events (notify-keyspace-events is empty)")
        : tr("notify-keyspace-events is \"%1\": it needs K or E with h, $, z, g and x").arg(QString::fromLatin1(flags));
}

void LockEventFeed::recheckConfig()
{
    if (m_rechecking || !m_subscriber)
        return;
    m_rechecking = true;
    QPointer<LockEventFeed> self(this);
    m_reader->command({ "CONFIG", "GET", "notify-keyspace-events" }, [self](const RedisResult &r) {
        if (!self)
            return;
        if (!r.ok() || r.value.size() != 2) { // not connected now, or denied since: asked again next time
            self->m_rechecking = false;
            return;
        }
        const QByteArray flags = r.value.at(1).bytes();
        const QByteArray prefix = self->keyspacePrefixFor(flags);
        if (prefix == self->m_keyspacePrefix && (prefix.isEmpty() || self->m_keyspaceOk)) {
            self->m_rechecking = false;
            return;
        }
        // Switched off (or to the other of K and E): what was listened to goes.
        if (!self->m_keyspacePrefix.isEmpty())
            self->m_subscriber->unsubscribe(RedisSubscriber::Kind::Pattern, self->m_keyspacePrefix + '*');
        self->m_keyspaceOk = false;
        self->m_keyspacePrefix = prefix;
        self->m_reason = self->reasonFor(flags);
        if (prefix.isEmpty()) {
            self->m_rechecking = false;
            self->decide();
            return;
        }
        // Switched on: live once the server confirms the subscription. What changed before it is found by a pass.
        self->m_subscriber->subscribe(RedisSubscriber::Kind::Pattern, prefix + '*', [self](const RedisError &error) {
            if (!self)
                return;
            self->m_rechecking = false;
            self->m_keyspaceOk = !error.isError();
            if (error.isError())
                self->m_reason = tr("pub/sub refused: %1").arg(error.message());
            self->decide();
            if (self->m_keyspaceOk)
                emit self->eventsMayBeLost();
        });
    });
}

QByteArray LockEventFeed::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Starting:
        return "starting";
    case Mode::KeyspaceEvents:
        return "keyspace-events";
    case Mode::PubSubPolling:
        return "pubsub+polling";
    case Mode::Polling:
        return "polling";
    }
    return {};
}

char LockEventFeed::usableFlags(const QByteArray &flags)
{
    // Every class a lock layout changes by: hashes, strings (a SET without a TTL), sorted sets, DEL and EXPIRE, and
    // expiries. Without one of them some layout's changes go unheard, and polling has to find them.
    const bool all = flags.contains('A');
    const bool classes = std::all_of(kEventClasses.cbegin(), kEventClasses.cend(),
        [&flags, all](char c) { return all || flags.contains(c); }); // A is every class but K, E, m and n
    if (!classes)
        return 0;
    if (flags.contains('K'))
        return 'K';
    if (flags.contains('E'))
        return 'E';
    return 0;
}

void LockEventFeed::start()
{
    if (m_subscriber)
        return;
    m_subscriber = new RedisSubscriber(m_options, this);
    connect(m_subscriber, &RedisSubscriber::patternMessage, this,
        [this](
            const QByteArray &, const QByteArray &channel, const QByteArray &payload) { onMessage(channel, payload); });
    connect(m_subscriber, &RedisSubscriber::resubscribed, this, &LockEventFeed::eventsMayBeLost);

    // Every layout's release channel patterns are confirmed before the mode is announced, so no release after that
    // can be missed; then the keyspace events' own answer.
    const QList<QByteArray> patterns = LockNameMap::releaseChannelPatterns();
    m_pendingAnswers = int(patterns.size()) + 1;
    auto answered = [this](bool *flag, const RedisError &error) {
        *flag = !error.isError();
        if (error.isError() && m_reason.isEmpty())
            m_reason = tr("pub/sub refused: %1").arg(error.toString());
        if (--m_pendingAnswers == 0)
            decide();
    };
    // Release messages count as heard only when every pattern was accepted: a layout whose channel an ACL denies
    // would have its releases taken for deletions without a wake-up.
    auto patternsLeft = std::make_shared<int>(int(patterns.size()));
    auto allAccepted = std::make_shared<bool>(true);
    for (const QByteArray &pattern : patterns) {
        m_subscriber->subscribe(RedisSubscriber::Kind::Pattern, pattern,
            [this, answered, patternsLeft, allAccepted](const RedisError &error) {
                *allAccepted = *allAccepted && !error.isError();
                if (--*patternsLeft == 0)
                    m_pubSubOk = *allAccepted; // before the last answer may decide the mode
                bool accepted = false;
                answered(&accepted, error);
            });
    }

    if (!m_useKeyspaceEvents) {
        m_reason = tr("keyspace events switched off for this connection");
        if (--m_pendingAnswers == 0)
            decide();
        return;
    }
    QPointer<LockEventFeed> self(this);
    m_reader->command({ "CONFIG", "GET", "notify-keyspace-events" }, [self, answered](const RedisResult &r) {
        if (!self)
            return;
        const QByteArray flags = r.ok() && r.value.size() == 2 ? r.value.at(1).bytes() : QByteArray();
        const QByteArray prefix = self->keyspacePrefixFor(flags);
        self->m_configReadable = r.ok();
        if (!r.ok())
            self->m_reason = tr("cannot read notify-keyspace-events (%1)").arg(r.error.toString());
        else if (prefix.isEmpty())
            self->m_reason = self->reasonFor(flags);
        if (prefix.isEmpty()) {
            if (--self->m_pendingAnswers == 0)
                self->decide();
            return;
        }
        self->m_keyspacePrefix = prefix;
        self->m_subscriber->subscribe(
            RedisSubscriber::Kind::Pattern, self->m_keyspacePrefix + '*', [self, answered](const RedisError &error) {
                if (self)
                    answered(&self->m_keyspaceOk, error);
            });
    });
}

void LockEventFeed::sync(std::function<void(bool)> done)
{
    if (m_subscriber) {
        m_subscriber->sync(std::move(done));
        return;
    }
    QMetaObject::invokeMethod(
        this, [done = std::move(done)] { done(false); }, Qt::QueuedConnection);
}

void LockEventFeed::decide()
{
    const Mode mode = m_keyspaceOk ? Mode::KeyspaceEvents : m_pubSubOk ? Mode::PubSubPolling : Mode::Polling;
    if (mode == Mode::KeyspaceEvents)
        m_reason.clear();
    if (m_configReadable && m_useKeyspaceEvents && m_recheck.interval() > 0 && !m_recheck.isActive())
        m_recheck.start();
    if (mode != m_mode) {
        m_mode = mode;
        emit modeChanged(mode);
    }
}

void LockEventFeed::onMessage(const QByteArray &channel, const QByteArray &payload)
{
    if (!m_keyspacePrefix.isEmpty() && channel.startsWith(m_keyspacePrefix)) {
        const bool keyspace = m_keyspacePrefix.startsWith("__keyspace@");
        const QByteArray suffix = channel.mid(m_keyspacePrefix.size());
        const QByteArray key = keyspace ? suffix : payload;
        const QByteArray event = keyspace ? payload : suffix;
        if (LockNameMap::isBookkeeping(key))
            return;
        const Touch touch = event == "expired" ? Touch::Expired : event == "del" ? Touch::Deleted : Touch::Changed;
        const QList<QByteArray> names = LockNameMap::fromKey(key);
        emit touched(names, touch, event, names.size() != 1 || names.first() != key);
        return;
    }
    const QList<QByteArray> names = LockNameMap::fromChannel(channel);
    if (!names.isEmpty())
        emit touched(names, Touch::ReleaseMessage, {}, false);
}

} // namespace LockScope
