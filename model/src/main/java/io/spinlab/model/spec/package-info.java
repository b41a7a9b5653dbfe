/**
 * Sequential reference specifications of the primitives: plain, single-threaded classes that say
 * what each non-blocking operation returns in every state. A linearizability checker (Lincheck,
 * in the {@code properties} tests) compares concurrent runs of the real primitive against them.
 *
 * <p>Conventions shared by every spec:
 * <ul>
 *   <li>An operation that the primitive rejects with an exception returns
 *       {@link io.spinlab.model.spec.Outcome#thrown(Class)} instead, so that a checker compares
 *       the rejection like any other result; an operation that completes without a result
 *       returns {@link io.spinlab.model.spec.Outcome#OK}.</li>
 *   <li>Where the primitive's answer depends on the calling thread (lock ownership), the
 *       operation takes the caller's {@code threadId}: a number that identifies the thread within
 *       one run and that no two threads share.</li>
 *   <li>Specs implement {@code equals} and {@code hashCode} over their state, so that a checker
 *       can merge equal states.</li>
 *   <li>Specs are open for subclassing: a checker that creates its spec reflectively (Lincheck
 *       needs a public no-argument constructor) subclasses it to fix the initial state.</li>
 * </ul>
 * Blocking operations are left out: a sequential spec cannot wait, and their protocols (no
 * lost wake-up, no deadlock) are checked with real threads and in the simulator.
 */
package io.spinlab.model.spec;
