package io.spinlab.model.platform;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

class ForwardingPlatformTest {

    /** The harness's count handed with a measured window; forwarded as the same object. */
    private static final LongSupplier COUNTED = () -> 13L;

    @Test
    void shouldHandEveryPlatformCallToItsDelegateWithItsArguments() throws Exception {
        List<String> calls = new ArrayList<>();
        Platform recorder = (Platform) Proxy.newProxyInstance(Platform.class.getClassLoader(),
                new Class<?>[] {Platform.class}, (proxy, method, args) -> {
                    calls.add(method.getName() + Arrays.toString(args == null ? new Object[0] : args));
                    return switch (method.getReturnType().getName()) {
                        case "int" -> 7;
                        case "long" -> 11L;
                        case "java.lang.Thread" -> Thread.currentThread();
                        default -> null;
                    };
                });
        ForwardingPlatform forwarding = new ForwardingPlatform(recorder);
        Object blocker = "blocker";
        for (Method method : Platform.class.getMethods()) {
            Object[] args = Arrays.stream(method.getParameterTypes()).map(type -> argument(type, blocker)).toArray();
            calls.clear();
            Object answer = method.invoke(forwarding, args);
            // Each method, default ones included, reaches the delegate once, with the same arguments.
            assertThat(calls).as(method.getName()).containsExactly(method.getName() + Arrays.toString(args));
            if (method.getReturnType() == int.class) {
                assertThat(answer).isEqualTo(7);
            } else if (method.getReturnType() == long.class) {
                assertThat(answer).isEqualTo(11L);
            } else if (method.getReturnType() == Thread.class) {
                assertThat(answer).isSameAs(Thread.currentThread());
            }
        }
    }

    private static Object argument(Class<?> type, Object blocker) {
        if (type == int.class) {
            return 3;
        }
        if (type == long.class) {
            return 5L;
        }
        if (type == Thread.class) {
            return Thread.currentThread();
        }
        if (type == Runnable.class) {
            return (Runnable) () -> { };
        }
        if (type == String.class) {
            return "name";
        }
        if (type == LongSupplier.class) {
            return COUNTED;
        }
        return blocker;
    }
}
