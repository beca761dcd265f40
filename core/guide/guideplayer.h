#pragma once

#include "guide/guiderecord.h"
#include "guide/guidescripts.h"
#include "guide/scenario.h"
#include "redis/connectionoptions.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <deque>
#include <memory>

namespace LockScope::Guide {

class GuideClient;
class GuideObserver;

// Plays one scenario on a real Redis: it starts the scenario's emulated Redisson clients, runs each step at its time
// (in units of T, the watchdog timeout) on a monotonic clock, checks what Redis answered against the step's
// expectations, and reports every command, every client event and each step's outcome as GuideRecords, in the
// order they happened. Where Redis does something else, the step is marked unexpected with what was seen, and the
// scenario goes on. The console's window and lockscope-cli guide both draw what it reports; it draws nothing.
class GuidePlayer : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int timeScaleMs = 6000; // T
        // The private server: MONITOR for the calls scripts ran, keyspace events switched on. Otherwise the calls
        // are inferred and the server must hold no guided:* key before the demo starts.
        bool ownServer = true;
        UnlockEffect unlockEffect = UnlockEffect::V4;
        bool stepMode = false; // wait for next() before each step that is not in a live phase
        // What starts a client in a process of its own (the crash and freeze scenarios): a program of LockScope's
        // with the arguments that make it one (`lockscope-cli guide-actor`). Empty: those scenarios cannot run.
        QString actorProgram;
        QStringList actorArguments;
        // Pacing for people watching (the window's Play); 0 plays as fast as the scenario allows, as the CLI and the
        // tests do. A step with no time of its own comes at least minGapMs after the one before, so that a run of
        // instant steps can be followed; and a step that may wait comes readingMsPerChar per character of the
        // narration just shown after it, so that it can be read. A live step waits at most a sixth of T (its TTLs
        // run on), an awaited event or a live step with a time of its own not at all: Redis keeps that time.
        int minGapMs = 0;
        int readingMsPerChar = 0;
    };

    // How long the narration takes to read at msPerChar: a Chinese character says as much as a few Latin letters.
    static qint64 readingMs(const QString &narration, int msPerChar);

    GuidePlayer(ConnectionOptions connection, Options options, QObject *parent = nullptr);
    ~GuidePlayer() override;

    void play(const Scenario &scenario);
    // Step mode: run the next step.
    void next();
    // Step mode on or off while playing: a paused Play waits before the next step that may wait.
    void setStepMode(bool on);
    // Ends the scenario at once: clients stopped, guided keys deleted.
    void stop();
    bool isWaiting() const { return m_waiting; }
    qint64 nowMs() const { return m_clock.isValid() ? m_clock.elapsed() : 0; }
    const Options &options() const { return m_options; }

signals:
    void record(const LockScope::Guide::GuideRecord &record);
    // Step mode: the player waits for next() before step `step` (1-based).
    void waitingForNext(int step);
    // The scenario ended; error set when it could not run at all: refused when it would not (guided keys already
    // there), else it could not (no server).
    void finished(int unexpected, const QString &error, bool refused);

private:
    struct Slot
    {
        GuideRecord record;
        bool ready = false;
    };

    void begin();
    void schedule(int index);
    void execute(int index);
    void onActorRecord(GuideRecord record);
    void onKeyEvent(const QByteArray &key, const QByteArray &event);
    void completeStep(int index, std::shared_ptr<Slot> slot, const GuideRecord *primary);
    void checkAwait();
    void end(const QString &error, bool refused = false);
    void queue(const std::shared_ptr<Slot> &slot);
    void flush();
    GuideClient *clientOf(const QByteArray &alias, qint64 *thread) const;
    void signalProcess(int index, const std::shared_ptr<Slot> &slot);
    bool hasEvent(const QByteArray &actor, ActorEvent event) const;
    qint64 pauseBefore(int index) const;
    QByteArray clientName(const QByteArray &actor) const;
    void followSubscriptions(GuideRecord &record);

    ConnectionOptions m_connection;
    Options m_options;
    Scenario m_scenario;
    GuideObserver *m_observer = nullptr;
    QHash<QByteArray, GuideClient *> m_clients; // by client alias
    int m_starting = 0; // process clients not ready yet
    QElapsedTimer m_clock;
    qint64 m_offsetMs = 0; // time spent waiting for next(): the schedule moves by it
    qint64 m_actionStartMs = 0; // when the last step that did something started
    int m_current = -1; // the step running or waiting to run
    int m_started = 0; // the last step that ran
    QByteArray m_stepActor; // who acts in the current step (for UnlockHolder: whoever held the lock)
    bool m_waiting = false;
    qint64 m_waitStartMs = 0;
    bool m_ended = false;
    int m_unexpected = 0;
    QTimer m_stepTimer;
    QTimer m_awaitTimer;
    std::shared_ptr<Slot> m_primarySlot; // the current step's, until its first command is answered
    std::shared_ptr<Slot> m_awaitSlot;
    std::deque<std::shared_ptr<Slot>> m_out;
    QList<GuideRecord> m_events; // every event so far, for Await
    qint64 m_doneMs = 0; // when the last step was complete: pacing counts from there
    QHash<QByteArray, QSet<QByteArray>> m_listening; // by channel: the clients subscribed, as their commands went out
};

} // namespace LockScope::Guide
