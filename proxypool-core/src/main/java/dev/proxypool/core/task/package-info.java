/**
 * The one way a component runs work in the background: {@link dev.proxypool.core.task.BackgroundTasks}
 * starts named threads for periodic tasks and long-running loops, logs a task's failure instead of
 * losing it, and stops and joins every thread it started on {@code close()}.
 */
package dev.proxypool.core.task;
