#pragma once

#include "replay/replayframe.h"

#include <QElapsedTimer>
#include <QMainWindow>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QSlider;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTimer;

namespace LockScope {

class HoldChart;
class KeyedTableModel;
class ReplayEngine;
class ReplayEventsModel;
class ReplayTableModel;

// A recording replayed in the console (File › Open recording…, docs/user-guide.md): the lock table as it stood at
// any moment, driven by a time slider (a click on it goes to that moment, a drag passes through them, Play runs the
// recording at 1× to 60×), the events that led up to the moment, and the selected lock's history page, from which
// Ctrl+Right jumps to its next event. It only reads: there is nothing here that could change a lock.
class ReplayWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit ReplayWindow(const QString &path, QWidget *parent = nullptr);
    ~ReplayWindow() override;

    void seekTo(qint64 timeMs);
    // A moment as typed: a date and time, or a time alone on the day of referenceMs; -1 when it is none.
    static qint64 parseMoment(const QString &text, qint64 referenceMs);
    qint64 momentMs() const { return m_momentMs; }
    qint64 shownMs() const; // the moment the table shows (-1: none yet)
    bool isLoaded() const { return m_info.firstMs >= 0 || !m_info.error.isEmpty(); }
    const ReplayInfo &info() const { return m_info; }

    ReplayEngine *engine() const { return m_engine; }
    QSlider *slider() const { return m_slider; }
    QLineEdit *momentField() const { return m_moment; }
    QComboBox *serverBox() const { return m_server; }
    QComboBox *speedBox() const { return m_speed; }
    QAction *playAction() const { return m_play; }
    QAction *nextEventAction() const { return m_nextEvent; }
    QLineEdit *filterField() const { return m_filter; }
    QTableView *locksView() const { return m_locksView; }
    ReplayTableModel *locksModel() const { return m_locks; }
    QTableView *historyView() const { return m_historyView; }
    ReplayEventsModel *historyModel() const { return m_history; }
    QTableView *eventsView() const { return m_eventsView; }
    ReplayEventsModel *eventsModel() const { return m_events; }
    QTabWidget *pages() const { return m_pages; }
    HoldChart *holdChart() const { return m_chart; }
    QTableView *contentionView() const { return m_hotView; }
    KeyedTableModel *contentionModel() const { return m_hot; }
    qint64 contentionShownMs() const { return m_contentionShownMs; }
    QLabel *statusLabel() const { return m_status; }
    QByteArray selectedLock() const;

signals:
    void loaded(); // the recording was read (or could not be: info().error)
    void frameShown(); // the table shows a new moment
    void historyShown(); // the selected lock's history page is filled
    void contentionShown(); // the contention page shows the hour before a moment

private:
    void onOpened(const ReplayInfo &info);
    void onFrame(const ReplayFrame &frame);
    void onSliderMoved(int value);
    void onSelectionChanged();
    void tick();
    void setPlaying(bool playing);
    void jumpToNextEvent();
    void updateChart();
    void askForContention();
    void requestHistory();
    void followHistory();
    qint64 timeOfSlider(int value) const;
    int sliderOf(qint64 timeMs) const;

    ReplayEngine *m_engine;
    ReplayInfo m_info;
    qint64 m_momentMs = -1;
    qint64 m_unitMs = 1; // one step of the slider
    QByteArray m_historyOf; // the lock whose history page is shown: followed from moment to moment
    bool m_applyingFrame = false;
    bool m_historyPending = false;
    qint64 m_historyFromMs = 0; // the moments the page's events cover whole
    qint64 m_historyToMs = -1;

    QComboBox *m_server;
    QLineEdit *m_moment;
    QSlider *m_slider;
    QAction *m_play;
    QComboBox *m_speed;
    QAction *m_nextEvent;
    QLineEdit *m_filter;
    ReplayTableModel *m_locks;
    QTableView *m_locksView;
    QTabWidget *m_pages;
    QLabel *m_historyTitle;
    HoldChart *m_chart;
    ReplayEventsModel *m_history;
    QTableView *m_historyView;
    ReplayEventsModel *m_events;
    QTableView *m_eventsView;
    QLabel *m_status;
    KeyedTableModel *m_hot;
    QSortFilterProxyModel *m_hotSorted;
    QTableView *m_hotView;
    QLabel *m_contentionTitle;
    qint64 m_contentionShownMs = -1;
    QTimer *m_playTimer;
    QElapsedTimer m_playClock;
};

} // namespace LockScope
