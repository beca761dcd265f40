#pragma once

#include "guide/guiderecord.h"
#include "guide/scenario.h"

#include <QHash>

namespace LockScope::Guide {

// What the guided demo's window shows at a moment, folded from the player's records in the order they come: the
// lock card of each guided key, the channel, and one lane per actor. No widgets: the window paints it, and tests
// read it to check what a viewer would see.
class GuideStage
{
public:
    struct Card
    {
        QByteArray name;
        KeyState state; // as last read or inferred
        qint64 readAtMs = 0; // when state.pttl was true
        qint64 leaseMs = 0; // the TTL bar's full width: the lease it was set to
        bool watchdog = false; // kept by a watchdog (green bar), else a fixed lease (blue)
        QString jump; // why the TTL last jumped up ("renewed by A's watchdog", ...)
        qint64 jumpAtMs = -1;
        QString gone; // the tombstone: how the key went ("expired", "deleted by unlock", ...)
        qint64 goneAtMs = -1;
        QString holder; // who held it last, for the tombstone

        // PTTL at that moment, drawn from the last read and the clock: -2 absent, -1 no TTL.
        qint64 pttlAt(qint64 nowMs) const;
    };
    struct Pulse
    {
        qint64 tMs = 0;
        QByteArray payload;
        QByteArray from; // who published
        int receivers = 0;
    };
    struct Section // a critical section: from the acquire its thread saw to the unlock it sent
    {
        qint64 startMs = 0;
        qint64 endMs = -1; // -1: still in it
    };
    enum class LaneState { Idle, Holding, Subscribed, Sleeping, Woken, GaveUp, Refused, Crashed, Frozen };
    struct Lane
    {
        QByteArray alias; // "A1"
        QByteArray client; // "A"
        QByteArray owner; // uuid:thread
        LaneState state = LaneState::Idle;
        QString chip; // the state in words
        qint64 sleepUntilMs = -1; // sleeping with a timer: when it runs out
        qint64 pid = 0; // a client in a process of its own
        QList<Section> sections;
        QString watchdog; // the client's watchdog, on the client's first lane: "ticks every 1000 ms", "dropped"
        qint64 lastTickMs = -1;
    };

    void reset(const Scenario &scenario, int timeScaleMs);
    void apply(const GuideRecord &record);

    const QList<Card> &cards() const { return m_cards; }
    const QList<Lane> &lanes() const { return m_lanes; }
    const QList<Pulse> &pulses() const { return m_pulses; }
    int listeners() const { return m_listeners; }
    int holdCount(const Lane &lane) const; // the lane's count in the first card's hash
    // When two or more critical sections overlapped: two owners at once.
    QList<Section> overlaps(qint64 nowMs) const;
    int timeScaleMs() const { return m_timeScaleMs; }
    // The scenario's length on its schedule (its last timed step), for the lanes' time axis.
    qint64 plannedMs() const;
    const Scenario &scenario() const { return m_scenario; }

private:
    Card *card(const QByteArray &name);
    Lane *lane(const QByteArray &alias);
    QList<Lane *> lanesOf(const QByteArray &client);
    QByteArray clientOf(const QByteArray &alias) const;
    void applyState(const GuideRecord &record);
    void applyEvent(const GuideRecord &record);
    void applyWire(const GuideRecord &record);
    void markGone(Card &card, const QString &how, qint64 tMs);
    void openSection(Lane &lane, qint64 tMs);
    void closeSection(Lane &lane, qint64 tMs);

    Scenario m_scenario;
    int m_timeScaleMs = 6000;
    QList<Card> m_cards;
    QList<Lane> m_lanes;
    QList<Pulse> m_pulses;
    int m_listeners = 0;
};

} // namespace LockScope::Guide
