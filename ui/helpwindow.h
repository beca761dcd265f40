#pragma once

#include <QDialog>

class QTextBrowser;

namespace LockScope {

// Help read inside the app: the user guide, the lockscope-cli reference (the Markdown files the package ships under
// share/doc/lockscope/docs, else the copies built into the app) and the keyboard shortcuts. Not modal: a person reads
// it beside the locks.
class HelpWindow : public QDialog
{
    Q_OBJECT
public:
    enum class Page { UserGuide, CliReference };
    // A page shipped with LockScope.
    HelpWindow(Page page, QWidget *parent = nullptr);
    // Any Markdown text (the shortcuts, made from the window's own actions).
    HelpWindow(const QString &title, const QString &markdown, QWidget *parent = nullptr);

    QTextBrowser *browser() const { return m_browser; }
    // The file a page is read from: the installed copy when there is one, else the built-in one (":/docs/...").
    static QString pagePath(Page page);

private:
    void build(const QString &title, const QString &markdown, const QString &directory);

    QTextBrowser *m_browser = nullptr;
};

} // namespace LockScope
