#pragma once

#include "models/ownholds.h"

#include <QHash>
#include <QPointer>

#include <QWidget>
#include <functional>

class QLabel;
class QTableView;
class QTreeWidget;

namespace LockScope {

class HoldChart;
class HolderWatch;
class LockMonitor;
class LockTimelineModel;

// Everything about the selected lock: holders with counts, the fair queue with each waiter's remaining wait,
// readers and their timeout keys, the evidence behind its classification, warnings, who held it when, and its
// timeline. It follows the monitor: what changes on the server changes here.
class DetailPane : public QWidget
{
    Q_OBJECT
public:
    DetailPane(LockMonitor *monitor, QWidget *parent = nullptr);

    void setLock(const QByteArray &name);
    QByteArray lock() const { return m_name; }
    void setOwnClientId(const QByteArray &clientId) { m_own.setClientId(clientId); }
    // The console's own holds, name -> owner: a bare-token holder (a string lock's) carries no client id.
    void setOwnHolds(const QHash<QByteArray, QByteArray> &tokens);
    // Whether the console's watchdog renews each of its own holds, as the table's Watchdog column says it.
    void setOwnWatchdogs(const QHash<QByteArray, bool> &watchdogs);
    // The line on how long a lock's waiters waited (LockTexts::waitsText), from the contention statistics; empty: none.
    void setWaitsSource(std::function<QString(const QByteArray &name)> source) { m_waits = std::move(source); }
    // Whether each holder is alive, who it is and its renewals as numbers (HolderWatch); nullptr: not shown. Its
    // changed() refreshes the pane.
    void setHolderWatch(const HolderWatch *watch);
    // Re-reads the record and repaints the parts that count down (the window's repaint timer calls it).
    void refresh();

    QTreeWidget *holdersView() const { return m_holders; }
    QTreeWidget *queueView() const { return m_queue; }
    QLabel *evidenceLabel() const { return m_evidence; }
    QLabel *livenessLabel() const { return m_liveness; }
    QLabel *titleLabel() const { return m_title; }
    LockTimelineModel *timeline() const { return m_timeline; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // A word-wrapped label held to the height its lines need at its width.
    static void fitLabel(QLabel *label);
    QString livenessHtml(const LockRecord &record) const;

    LockMonitor *m_monitor;
    QByteArray m_name;
    OwnHolds m_own; // what the console knows of its own holds, as the table knows it
    std::function<QString(const QByteArray &)> m_waits;
    QPointer<const HolderWatch> m_watch;
    QLabel *m_title;
    QTreeWidget *m_holders;
    QTreeWidget *m_queue;
    QLabel *m_liveness;
    QLabel *m_evidence;
    HoldChart *m_chart;
    LockTimelineModel *m_timeline;
    QTableView *m_timelineView;
};

} // namespace LockScope
