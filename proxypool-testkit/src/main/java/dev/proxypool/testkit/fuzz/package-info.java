/**
 * Seeded, reproducible input generation for the fuzz suites ({@code dev.proxypool.*.fuzz}): a
 * {@link dev.proxypool.testkit.fuzz.FuzzRun} derives one generator per input from a run seed
 * (fixed by default, printed with every summary and failure; {@code -Dproxypool.fuzz.seed=random}
 * or a number to explore), times
 * every input and keeps the counts; a {@link dev.proxypool.testkit.fuzz.Mutator} turns valid seed
 * inputs into near-valid and hostile ones. JDK only, no test framework: failures are
 * {@link java.lang.AssertionError}s.
 */
package dev.proxypool.testkit.fuzz;
