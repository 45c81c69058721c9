// @vitest-environment jsdom
// A run's error beyond code and message: a script's logs and stack, shown when the service sends them (and
// read defensively when it sends something else), and the error boundary that keeps one broken part from
// blanking the page around it.
import { cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunError } from '../src/api.ts';
import { ErrorBoundary } from '../src/components/ErrorBoundary.tsx';
import { ErrorDetails, errorDetailsOf } from '../src/components/ErrorDetails.tsx';

afterEach(cleanup);

describe('ErrorDetails', () => {
  it("shows a script's logs and stack", () => {
    const error = {
      code: 'SCRIPT_FAILED',
      message: 'export failed',
      details: {
        logs: ['exporting null', 'step 2'],
        stack: 'Error: export failed\n    at default (script:4:9)',
      },
    };
    render(createElement(ErrorDetails, { error, label: 'the run' }));
    expect(screen.getByLabelText('Script logs of the run').textContent).toBe('exporting null\nstep 2');
    expect(screen.getByLabelText('Stack of the run').textContent).toMatch(/at default \(script:4:9\)/);
    expect(screen.getByText(/2 lines/)).toBeTruthy();
  });

  it('shows nothing without logs or stack, and ignores shapes it does not expect', () => {
    const { container } = render(
      createElement(ErrorDetails, { error: { code: 'X', message: 'm' }, label: 'the run' }),
    );
    expect(container.innerHTML).toBe('');
    // The service never sends these shapes; the page still reads them without breaking.
    const odd = (details: unknown): RunError => ({ message: 'm', details }) as unknown as RunError;
    expect(errorDetailsOf(odd({ logs: 'not a list', stack: 42 }))).toEqual({});
    expect(errorDetailsOf(odd({ logs: [{ a: 1 }] }))).toEqual({ logs: ['{"a":1}'] });
    expect(errorDetailsOf(null)).toEqual({});
  });
});

describe('ErrorBoundary', () => {
  it('shows a message in place of a part that throws, and leaves its siblings', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = (): never => {
      throw new TypeError("Cannot read properties of undefined (reading 'url')");
    };
    render(
      createElement(
        'div',
        null,
        createElement('button', null, 'Sign out'),
        createElement(ErrorBoundary, { what: 'this row', children: createElement(Broken) }),
      ),
    );
    expect(screen.getByTestId('render-error').textContent).toBe(
      "Could not show this row: Cannot read properties of undefined (reading 'url')",
    );
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    spy.mockRestore();
  });
});
