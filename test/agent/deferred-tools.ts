/**
 * Tools for the tool search tests, compiled by the transformer during the test build: one tool loaded up front, two
 * deferred by JSDoc `@deferred`, one deferred by the `deferred` option, and one whose `deferred: false` option wins
 * over its `@deferred` tag; `cancelBooking`, deferred and in need of a human's approval, only in
 * `approvalRegistry`. Their words (names, descriptions, parameter docs) are what the searches find.
 */
import { ToolRegistry, tool } from "tooltype";

/**
 * Answer a question about the current conversation.
 * @param question The question
 */
export const ask = tool(function ask(question: string) {
  return `You asked: ${question}`;
});

/**
 * Get the weather forecast for the coming days.
 * @param city City name, e.g. "Lyon"
 * @param days How many days ahead
 * @deferred
 */
export const getForecast = tool(function get_forecast(city: string, days: number = 3) {
  return { city, days, sky: "rain" };
});

/**
 * Convert an amount of money between currencies.
 * @param amount The amount
 * @param from ISO code of the currency it is in
 * @param to ISO code of the currency wanted
 * @deferred
 */
export const convertCurrency = tool(function convert_currency(amount: number, from: string, to: string) {
  return { amount: amount * 2, currency: to, from };
});

/**
 * Book a table in a restaurant.
 * @param restaurantName Name of the restaurant
 * @param partySize Number of guests
 */
export const bookTable = tool(
  function book_table(restaurantName: string, partySize: number) {
    return `Booked ${restaurantName} for ${partySize}.`;
  },
  { deferred: true },
);

/**
 * List the tickets of the help desk.
 * @deferred
 */
export const listTickets = tool(
  function list_tickets() {
    return ["T-1"];
  },
  { deferred: false },
);

/**
 * Cancel a booking of a restaurant table.
 * @param bookingId The booking to cancel
 * @deferred
 */
export const cancelBooking = tool(
  function cancel_booking(bookingId: string) {
    return `Cancelled ${bookingId}.`;
  },
  { needsApproval: true },
);

/** A registry with the tools above and `cancelBooking`. */
export function approvalRegistry(): ToolRegistry {
  return new ToolRegistry([ask, getForecast, cancelBooking]);
}

/** A registry with every tool above but `cancelBooking`. */
export function deferredRegistry(): ToolRegistry {
  return new ToolRegistry([ask, getForecast, convertCurrency, bookTable, listTickets]);
}
