#pragma once

#include "demo/demoevent.h"

#include <QTreeWidget>

namespace LockScope {

// The live event log: newest first, one row per event, capped so a demo left running for days stays small.
class EventLog : public QTreeWidget
{
    Q_OBJECT
public:
    enum Column { TimeColumn, EventColumn, NameColumn, ClientColumn, DetailsColumn, ColumnCount };

    explicit EventLog(QWidget *parent = nullptr);

    void addEvent(const DemoEvent &event);
    int eventCount() const { return m_total; }
    void setLimit(int rows) { m_limit = rows; }

    static QString kindLabel(DemoEvent::Kind kind);
    static QColor kindColor(DemoEvent::Kind kind);
    static QString details(const DemoEvent &event);

private:
    int m_limit = 1000;
    int m_total = 0;
};

} // namespace LockScope
