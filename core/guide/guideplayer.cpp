#include "guide/guideplayer.h"

#include "guide/guidecheck.h"
#include "guide/guideobserver.h"
#include "guide/guidetext.h"
#include "guide/processclient.h"
#include "guide/redissonclient.h"

#include <QSet>

namespace LockScope::Guide {

namespace {
// Generous: a process client under a sanitizer on a loaded machine takes a second or two to start.
constexpr int startDeadlineMs = 30000;
} // namespace

GuidePlayer::GuidePlayer(ConnectionOptions connection, Options options, QObject *parent)
    : QObject(parent)
    , m_connection(std::move(connection))
    , m_options(options)
{
    m_stepTimer.setSingleShot(true);
    // A coarse timer may fire 5 % early: a step at 2 T would run 300 ms before its time at T = 6 s.
    m_stepTimer.setTimerType(Qt::PreciseTimer);
    m_awaitTimer.setSingleShot(true);
    connect(&m_awaitTimer, &QTimer::timeout, this, [this] {
        // The awaited event did not come in time: the step says so, and the scenario goes on.
        if (auto slot = std::exchange(m_awaitSlot, {})) {
            queue(slot);
            completeStep(m_current, slot, nullptr);
        }
    });
}

GuidePlayer::~GuidePlayer()
{
    for (GuideClient *client : std::as_const(m_clients))
        client->stop();
}

void GuidePlayer::play(const Scenario &scenario)
{
    m_scenario = scenario;
    // The demo takes and releases locks: a read-only connection would refuse every step, so it does not start.
    if (m_connection.readOnly) {
        QMetaObject::invokeMethod(
            this, [this] { end(tr("refused: read-only mode (the guided demo takes and releases locks)"), true); },
            Qt::QueuedConnection);
        return;
    }
    m_observer = new GuideObserver(m_connection, m_options.ownServer, this);
    connect(m_observer, &GuideObserver::keyEvent, this, &GuidePlayer::onKeyEvent);
    m_observer->start([this](const QString &error) {
        if (!error.isEmpty()) {
            end(tr("cannot watch the server: %1").arg(error));
            return;
        }
        if (m_options.ownServer) {
            m_observer->clear([this](const QString &error) { error.isEmpty() ? begin() : end(error); });
            return;
        }
        // Someone else's server: the demo writes only guided:* keys, so none may be there already.
        m_observer->countGuidedKeys([this](int count, const QString &error) {
            if (!error.isEmpty())
                end(error);
            else if (count > 0)
                end(tr("the server already holds %n guided:* key(s); the guided demo writes only guided:* keys and "
                       "will not touch ones it did not write: delete them first, or use another database",
                        nullptr, count),
                    true);
            else
                begin();
        });
    });
}

void GuidePlayer::begin()
{
    QHash<QByteArray, RedissonClient::Options> clients;
    QSet<QByteArray> processes;
    for (const ActorSpec &actor : std::as_const(m_scenario.actors)) {
        RedissonClient::Options &o = clients[actor.client];
        o.client = actor.client;
        o.uuid = actor.uuid;
        o.threads.insert(actor.thread, actor.alias);
        o.watchdogTimeoutMs = m_options.timeScaleMs;
        o.unlockEffect = m_options.unlockEffect;
        if (actor.process)
            processes.insert(actor.client);
    }
    if (!processes.isEmpty() && (m_options.actorProgram.isEmpty() || m_connection.ssh.isSet())) {
        end(m_options.actorProgram.isEmpty()
                ? tr("this scenario runs a client in a process of its own, and no program to start it was given")
                : tr("this scenario runs a client in a process of its own, which cannot share the SSH tunnel: "
                     "play it on the private server"));
        return;
    }
    for (auto it = clients.cbegin(); it != clients.cend(); ++it) {
        GuideClient *client = nullptr;
        if (processes.contains(it.key())) {
            auto *process = new ProcessClient(
                m_connection, it.value(), m_options.actorProgram, m_options.actorArguments,
                [this] { return m_clock.msecsSinceReference(); }, this);
            const QByteArray name = it.key();
            connect(process, &GuideClient::ready, this, [this, process, name] {
                GuideRecord r;
                r.type = GuideRecord::Type::Event;
                r.actor = name;
                r.event = ActorEvent::Started;
                r.pid = process->pid();
                r.detail = tr("pid %1").arg(process->pid());
                m_events << r;
                // Shown when the scenario starts, before its first step.
                auto slot = std::make_shared<Slot>();
                slot->record = r;
                slot->ready = true;
                queue(slot);
                if (--m_starting == 0) {
                    m_clock.start();
                    flush();
                    schedule(0);
                }
            });
            connect(process, &GuideClient::failed, this, [this](const QString &error) { end(error); });
            ++m_starting;
            process->start();
            client = process;
        } else {
            client = new RedissonClient(
                m_connection, it.value(), [this] { return nowMs(); }, this);
        }
        connect(client, &GuideClient::record, this, &GuidePlayer::onActorRecord);
        m_clients.insert(it.key(), client);
    }
    // The clock starts once every client can act, so a process's start-up is not part of the first step.
    if (m_starting == 0) {
        m_clock.start();
        schedule(0);
        return;
    }
    // A child that never says it is ready (a program that is not LockScope's, say) ends the scenario, not the wait.
    QTimer::singleShot(startDeadlineMs, this, [this] {
        if (m_starting > 0)
            end(tr("the client's process did not start within %1 s").arg(startDeadlineMs / 1000));
    });
}

void GuidePlayer::schedule(int index)
{
    if (m_ended)
        return;
    if (index >= m_scenario.steps.size()) {
        end({});
        return;
    }
    const Step &step = m_scenario.steps.at(index);
    m_current = index;
    if (m_options.stepMode && !step.live && index > 0) {
        m_waiting = true;
        m_waitStartMs = nowMs();
        emit waitingForNext(index + 1);
        return;
    }
    qint64 due = step.at < 0 ? 0 : qint64(step.at * m_options.timeScaleMs) + m_offsetMs;
    // Only a pause moves the schedule: a step that is late anyway keeps the ones after it on time.
    if (const qint64 pause = pauseBefore(index), earliest = m_doneMs + pause; pause > 0 && due < earliest) {
        // A step that may wait moves the schedule after it, as a step mode's wait does; a live step only comes
        // later when it has no time of its own (pauseBefore bounds it).
        if (step.at >= 0 && !step.live) {
            m_offsetMs += earliest - due;
            due = earliest;
        } else if (step.at < 0) {
            due = earliest;
        }
    }
    m_stepTimer.disconnect();
    connect(&m_stepTimer, &QTimer::timeout, this, [this, index] { execute(index); });
    m_stepTimer.start(int(qMax<qint64>(0, due - nowMs())));
}

void GuidePlayer::next()
{
    if (!m_waiting || m_ended)
        return;
    m_waiting = false;
    // The step runs now, and the live phases after it keep their spacing from here.
    const Step &step = m_scenario.steps.at(m_current);
    if (step.at >= 0)
        m_offsetMs = qMax(m_offsetMs, nowMs() - qint64(step.at * m_options.timeScaleMs));
    execute(m_current);
}

void GuidePlayer::setStepMode(bool on)
{
    m_options.stepMode = on;
}

qint64 GuidePlayer::readingMs(const QString &narration, int msPerChar)
{
    qint64 weight = 0;
    for (const QChar c : narration) {
        const QChar::Script script = c.script();
        // A Chinese, Japanese or Korean character is a word or a syllable: it takes as long to read as a short word.
        const bool dense = script == QChar::Script_Han || script == QChar::Script_Hiragana
            || script == QChar::Script_Katakana || script == QChar::Script_Hangul;
        weight += dense ? 3 : 1;
    }
    return weight * msPerChar;
}

qint64 GuidePlayer::pauseBefore(int index) const
{
    if (index == 0 || index >= m_scenario.steps.size())
        return 0;
    const Step &step = m_scenario.steps.at(index);
    if (step.live && (step.action == Step::Action::Await || step.at >= 0))
        return 0; // Redis keeps this time
    qint64 pause = readingMs(translated(m_scenario.steps.at(index - 1).narration), m_options.readingMsPerChar);
    if (step.at < 0)
        pause = qMax<qint64>(pause, m_options.minGapMs);
    // A live step's TTLs run on while it waits: a sixth of T leaves every lease it depends on running.
    if (step.live)
        pause = qMin<qint64>(pause, m_options.timeScaleMs / 6);
    return pause;
}

QByteArray GuidePlayer::clientName(const QByteArray &actor) const
{
    const ActorSpec *spec = m_scenario.actor(actor);
    return spec ? spec->client : actor;
}

void GuidePlayer::followSubscriptions(GuideRecord &record)
{
    // Who listens on each channel, counted as the clients' SUBSCRIBE and UNSUBSCRIBE go out: the window shows the
    // listeners as they change, not only as read after a step, and a publish inside a script answers its count only
    // to the script, so the count at its reply is what the message reached.
    if (record.type != GuideRecord::Type::Wire || record.keys.isEmpty())
        return;
    if (record.op == "SUBSCRIBE" || record.op == "UNSUBSCRIBE") {
        QSet<QByteArray> &clients = m_listening[record.keys.first()];
        if (record.op == "UNSUBSCRIBE")
            clients.remove(clientName(record.actor));
        else if (!record.reply.isError())
            clients.insert(clientName(record.actor));
        record.listeners = int(clients.size());
    } else if ((record.script.startsWith("unlock") || record.script == "force-unlock") && record.keys.size() > 1) {
        record.receivers = int(m_listening.value(record.keys.at(1)).size()); // kept only if it published
    }
}

GuideClient *GuidePlayer::clientOf(const QByteArray &alias, qint64 *thread) const
{
    const ActorSpec *actor = m_scenario.actor(alias);
    if (!actor)
        return nullptr;
    *thread = actor->thread;
    return m_clients.value(actor->client);
}

void GuidePlayer::execute(int index)
{
    if (m_ended)
        return;
    m_current = index;
    m_started = index;
    const Step &step = m_scenario.steps.at(index);
    m_stepActor = step.actor;
    auto slot = std::make_shared<Slot>();
    if (step.action == Step::Action::Await) {
        // Its place in the log is where the awaited event comes: what happens while it waits (renewals, sleeps,
        // the TTL running down) goes out as it happens instead of queueing behind it.
        m_awaitSlot = slot;
        m_awaitTimer.start(int(step.timeout * m_options.timeScaleMs));
        checkAwait();
        return;
    }
    queue(slot);
    if (step.action == Step::Action::Observe) {
        completeStep(index, slot, nullptr);
        return;
    }
    m_actionStartMs = nowMs();
    if (step.action == Step::Action::UnlockHolder) {
        // Whoever holds the lock now (a race decided it) releases it: read who that is, then unlock as them.
        m_observer->readState({ step.key }, {}, [this, index, slot](const QList<KeyState> &states, int) {
            if (m_ended)
                return;
            const Step &step = m_scenario.steps.at(index);
            for (const ActorSpec &actor : std::as_const(m_scenario.actors)) {
                if (!states.isEmpty()
                    && !states.first().field(actor.uuid + ':' + QByteArray::number(actor.thread)).isEmpty()) {
                    m_stepActor = actor.alias;
                    m_primarySlot = slot;
                    qint64 thread = 0;
                    clientOf(actor.alias, &thread)->unlock(thread, step.key, false, std::nullopt);
                    return;
                }
            }
            completeStep(index, slot, nullptr); // nobody holds it: the step says so
        });
        return;
    }
    if (step.action == Step::Action::Kill || step.action == Step::Action::Freeze || step.action == Step::Action::Thaw) {
        signalProcess(index, slot);
        return;
    }
    qint64 thread = 0;
    GuideClient *client = clientOf(step.actor, &thread);
    if (!client) {
        completeStep(index, slot, nullptr);
        return;
    }
    m_primarySlot = slot;
    const qint64 T = m_options.timeScaleMs;
    const qint64 lease = step.lease > 0 ? qint64(step.lease * T) : -1;
    switch (step.action) {
    case Step::Action::Lock:
        client->lock(thread, step.key, lease);
        break;
    case Step::Action::TryLock:
        client->tryLock(thread, step.key, step.wait < 0 ? -1 : qint64(step.wait * T), lease);
        break;
    case Step::Action::Unlock:
    case Step::Action::UnlockDropReply: {
        std::optional<UnlockEffect> effect;
        if (step.unlockEffect >= 0)
            effect = UnlockEffect(step.unlockEffect);
        client->unlock(thread, step.key, step.action == Step::Action::UnlockDropReply, effect);
        break;
    }
    case Step::Action::RetryUnlock:
        client->retryUnlock(thread, step.key);
        break;
    case Step::Action::ForceUnlock:
        client->forceUnlock(thread, step.key);
        break;
    case Step::Action::Raw: {
        QList<QByteArray> argv;
        for (QByteArray arg : step.raw) {
            arg.replace("{owner}", client->owner(thread));
            arg.replace("{T}", QByteArray::number(T));
            argv << arg;
        }
        client->raw(thread, argv);
        break;
    }
    case Step::Action::Observe:
    case Step::Action::Await:
    case Step::Action::UnlockHolder:
    case Step::Action::Kill:
    case Step::Action::Freeze:
    case Step::Action::Thaw:
        break;
    }
}

void GuidePlayer::signalProcess(int index, const std::shared_ptr<Slot> &slot)
{
    const Step &step = m_scenario.steps.at(index);
    qint64 thread = 0;
    GuideClient *client = clientOf(step.actor, &thread);
    GuideRecord r;
    r.type = GuideRecord::Type::Event;
    r.tMs = nowMs();
    r.actor = step.actor;
    r.op = actionName(step.action);
    using Signal = GuideClient::Signal;
    const Signal signal = step.action == Step::Action::Kill ? Signal::Kill
        : step.action == Step::Action::Freeze               ? Signal::Freeze
                                                            : Signal::Thaw;
    r.event = step.action == Step::Action::Kill ? ActorEvent::Killed
        : step.action == Step::Action::Freeze   ? ActorEvent::Frozen
                                                : ActorEvent::Thawed;
    if (!client || !client->sendSignal(signal)) {
        // A client inside the player has no process to signal: the step says so and the scenario goes on.
        completeStep(index, slot, nullptr);
        return;
    }
    if (auto *process = qobject_cast<ProcessClient *>(client)) {
        r.pid = process->pid();
        r.detail = tr("pid %1").arg(process->pid());
    }
    // The kernel closes a killed process's connections, and Redis drops their subscriptions with them.
    if (signal == Signal::Kill) {
        for (QSet<QByteArray> &clients : m_listening)
            clients.remove(clientName(step.actor));
    }
    m_events << r;
    completeStep(index, slot, &r);
}

void GuidePlayer::onActorRecord(GuideRecord record)
{
    if (m_ended)
        return;
    record.step = m_started + 1; // between two steps: the one that ran last
    if (record.type == GuideRecord::Type::Event)
        m_events << record;
    followSubscriptions(record);
    // A script that did not publish reached nobody; the calls it ran say whether it did.
    const auto published = [](GuideRecord r) {
        if (!r.calls.contains("publish"))
            r.receivers = -1;
        return r;
    };
    if (m_primarySlot && record.type == GuideRecord::Type::Wire && record.actor == m_stepActor) {
        // The step's own command: its record becomes the step's, with the state read after it.
        auto slot = std::exchange(m_primarySlot, {});
        const int index = m_current;
        m_observer->annotate(record, [this, slot, index, published](const GuideRecord &r) {
            const GuideRecord step = published(r);
            completeStep(index, slot, &step);
        });
        return;
    }
    auto slot = std::make_shared<Slot>();
    slot->record = record;
    queue(slot);
    m_observer->annotate(record, [this, slot, published](const GuideRecord &r) {
        slot->record = published(r);
        slot->ready = true;
        flush();
    });
    if (record.type == GuideRecord::Type::Event)
        checkAwait();
}

void GuidePlayer::onKeyEvent(const QByteArray &key, const QByteArray &event)
{
    if (m_ended || !m_clock.isValid())
        return;
    GuideRecord record;
    record.type = GuideRecord::Type::Event;
    record.step = m_started + 1; // between two steps: the one that ran last
    record.tMs = nowMs();
    record.actor = "Redis";
    record.keys = { key };
    if (event == "expired")
        record.event = ActorEvent::Expired;
    else if (event == "del")
        record.event = ActorEvent::Deleted;
    else
        return;
    m_events << record;
    // A deletion is already on screen as the command that did it; an expiry has no command of its own.
    if (record.event == ActorEvent::Expired) {
        auto slot = std::make_shared<Slot>();
        slot->record = record;
        slot->ready = true;
        queue(slot);
        flush();
    }
    checkAwait();
}

bool GuidePlayer::hasEvent(const QByteArray &actor, ActorEvent event) const
{
    for (const GuideRecord &e : m_events) {
        if ((e.actor == actor || actor == "*") && e.event == event && e.tMs >= m_actionStartMs)
            return true;
    }
    return false;
}

void GuidePlayer::checkAwait()
{
    if (!m_awaitSlot)
        return;
    const Step &step = m_scenario.steps.at(m_current);
    for (const GuideRecord &e : std::as_const(m_events)) {
        if ((e.actor == step.actor || step.actor == "*") && e.event == step.expect.event && e.tMs >= m_actionStartMs) {
            m_awaitTimer.stop();
            const GuideRecord found = e;
            auto slot = std::exchange(m_awaitSlot, {});
            queue(slot);
            completeStep(m_current, slot, &found);
            return;
        }
    }
}

void GuidePlayer::completeStep(int index, std::shared_ptr<Slot> slot, const GuideRecord *primary)
{
    GuideRecord base = primary ? *primary : GuideRecord();
    if (!primary)
        base.tMs = nowMs();
    QByteArray channel;
    if (!m_scenario.keys.isEmpty())
        channel = RedissonClient::channel(m_scenario.keys.first());
    m_observer->readState(
        m_scenario.keys, channel, [this, index, slot, base](const QList<KeyState> &states, int listeners) {
            if (m_ended)
                return;
            const Step &step = m_scenario.steps.at(index);
            GuideRecord r = base;
            r.type = GuideRecord::Type::Step;
            r.step = index + 1;
            r.actor = base.actor.isEmpty() || step.action != Step::Action::Await ? m_stepActor : base.actor;
            if (r.op.isEmpty())
                r.op = actionName(step.action);
            r.narration = translated(step.narration);
            r.state = states;
            r.listeners = listeners;
            r.seen = checkStep(m_scenario, step, r, m_options.timeScaleMs,
                step.expect.notEvent != ActorEvent::None && hasEvent(step.actor, step.expect.notEvent));
            r.unexpected = !r.seen.isEmpty();
            if (r.unexpected)
                ++m_unexpected;
            slot->record = r;
            slot->ready = true;
            flush();
            m_doneMs = nowMs();
            schedule(index + 1);
        });
}

void GuidePlayer::queue(const std::shared_ptr<Slot> &slot)
{
    m_out.push_back(slot);
}

void GuidePlayer::flush()
{
    while (!m_out.empty() && m_out.front()->ready) {
        const GuideRecord r = m_out.front()->record;
        m_out.pop_front();
        emit record(r);
    }
}

void GuidePlayer::stop()
{
    end({});
}

void GuidePlayer::end(const QString &error, bool refused)
{
    if (m_ended)
        return;
    m_ended = true;
    m_stepTimer.stop();
    m_awaitTimer.stop();
    // What is still waiting for MONITOR goes out as it is: nothing more is coming.
    for (const auto &slot : m_out)
        slot->ready = true;
    flush();
    for (GuideClient *client : std::as_const(m_clients))
        client->stop();
    if (!m_observer || !error.isEmpty()) {
        emit finished(m_unexpected, error, refused);
        return;
    }
    // Leave the server as found: every guided key and latch deleted (never FLUSHDB).
    m_observer->clear([this](const QString &error) { emit finished(m_unexpected, error, false); });
}

} // namespace LockScope::Guide
